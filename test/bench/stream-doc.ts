/**
 * The replies bench:stream streams: markdown as a model writes it (headings, paragraphs with bold and
 * inline code, bullet and numbered lists), cut into tokens of one word with its leading whitespace.
 * The last token is a marker word the bench waits for on screen.
 */
const WORDS = (
  "dermatitis inflammation moisturizer fragrance-free hydrocortisone antihistamine lesions " +
  "symptoms irritation allergens emollients barrier ointment sensitivity treatment examination"
).split(" ");

function section(k: number): string {
  const w = (i: number) => WORDS[(k * 7 + i) % WORDS.length];
  const sentence = (i: number) =>
    `${w(i)} ${w(i + 1)} **${w(i + 2)} ${w(i + 3)}** with \`${w(i + 4)}\` and ${w(i + 5)} ${w(i + 6)}.`;
  return [
    `## ${w(0)} ${w(1)} ${k}`,
    "",
    `${sentence(1)} ${sentence(2)} ${sentence(3)}`,
    "",
    `- **${w(4)}**: ${w(5)} ${w(6)} \`${w(7)}\` ${w(8)}`,
    `- ${w(9)} ${w(10)} **${w(11)}** ${w(12)}`,
    `- ${w(13)} \`${w(14)}\` ${w(15)} ${w(16)}`,
    "",
    `1. ${w(2)} **${w(3)}** ${w(5)}`,
    `2. ${w(6)} ${w(8)} \`${w(9)}\``,
    "",
    `${sentence(4)} ${sentence(5)}`,
    "",
    "",
  ].join("\n");
}

/** `count` tokens of markdown, the last one the marker (e.g. `END1000`). */
export function markdownTokens(count: number, marker: string): string[] {
  const tokens: string[] = [];
  for (let k = 1; tokens.length < count - 1; k++) tokens.push(...(section(k).match(/\s*\S+/g) ?? []));
  tokens.length = count - 1;
  tokens.push(` ${marker}`);
  return tokens;
}
