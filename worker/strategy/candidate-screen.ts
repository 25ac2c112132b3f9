import { foldText } from "./untrusted-text.ts";

/**
 * What the regression gate refuses in a candidate prompt before any case is replayed: contact
 * details and links, and instructions to set the earlier ones aside, that production does not
 * have. They are what a visitor who wants the agent to send every other visitor somewhere has to
 * get into the prompt; a real strategy change needs none of them, and an owner who wants one can
 * still promote the refused run knowingly. Pure.
 */
export type Finding = { kind: "phone" | "link" | "email" | "override"; text: string; key: string };

const PHONE = /(?<![\p{L}\p{N}])\+?\(?\d[\d \t().\p{Pd}/]{5,}\d(?![\p{L}\p{N}])/gu;
/** Dates and year ranges have a phone number's digits. */
const NOT_PHONE = [/^\d{4}-\d{2}-\d{2}$/, /^\d{4}\s*\p{Pd}\s*\d{4}$/u];
const EMAIL = /[\p{L}\p{N}._%+-]+@(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}/gu;
const SCHEME_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]}）】」]+/gu;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const BARE_DOMAIN = new RegExp(
  `(?<![\\p{L}\\p{N}@./-])(?:${LABEL}\\.)+[a-z]{2,24}(?![\\p{L}\\p{N}-])(?:/[^\\s<>"'\`)]*)?`,
  "gu",
);

const alternatives = (words: string[]) => `(?:${words.join("|")})`;
const EN_VERB = new RegExp(
  `\\b${alternatives(["ignore", "disregard", "forget", "override", "overrule", "bypass", "discard"])}\\b`,
  "gu",
);
const EN_THINGS = ["instructions?", "rules?", "prompts?", "guidelines?", "polic(?:y|ies)"];
const EN_OBJECT = new RegExp(
  "^[^.!?;\\n]{0,40}?\\b" +
    alternatives([
      ...EN_THINGS,
      "guidance",
      "directions?",
      "directives?",
      "constraints?",
      "restrictions?",
      "system (?:message|prompt)",
      "everything",
      "anything",
      "(?:the|all(?: of the)?) above",
    ]) +
    "\\b",
  "u",
);
const EN_NOT_FOLLOW = new RegExp(
  "\\b(?:do not|don['’]t|stop|no longer)\\s+(?:follow|obey|apply)(?:ing)?\\b[^.!?;\\n]{0,30}?\\b" +
    `${alternatives(EN_THINGS)}\\b`,
  "gu",
);
const EN_NEGATED = /(?:\bnot|\bnever|n['’]t|\bwithout)\s+$/u;
const ZH_VERB = new RegExp(
  alternatives([
    ..."不要理会 别理会 不理会 不必理会 不要遵守 不再遵守 不用遵守 不必遵守".split(" "),
    ..."忽略 忽视 无视 忘记 忘掉 忘了 抛开 绕过 别管".split(" "),
  ]),
  "gu",
);
const ZH_OBJECT = new RegExp(
  "^[^。！？；\\n]{0,15}?" +
    alternatives([
      ..."指令 指示 规则 提示词 提示 设定 约束 限制 命令 规定 系统消息".split(" "),
      ..."以上 上面 上述 之前的 先前的 此前的 前面的".split(" "),
    ]),
  "u",
);
const ZH_NEGATED = /(?:不要|不能|不可|不得|切勿|勿|别|绝不|决不|从不)$/u;

function overrides(text: string): Finding[] {
  const found: Finding[] = [];
  const add = (phrase: string) => found.push({ kind: "override", text: phrase, key: phrase.replace(/\s+/g, " ") });
  // Each verb on its own: a negated one ("never forget the rules") must not hide the next one.
  for (const m of text.matchAll(EN_VERB)) {
    if (EN_NEGATED.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    const object = EN_OBJECT.exec(text.slice(m.index + m[0].length));
    if (object) add(m[0] + object[0]);
  }
  for (const m of text.matchAll(EN_NOT_FOLLOW)) add(m[0]);
  for (const m of text.matchAll(ZH_VERB)) {
    if (ZH_NEGATED.test(text.slice(Math.max(0, m.index - 2), m.index))) continue;
    const object = ZH_OBJECT.exec(text.slice(m.index + m[0].length));
    if (object) add(m[0] + object[0]);
  }
  return found;
}

export function findRisky(raw: string): Finding[] {
  let text = foldText(raw);
  const found: Finding[] = [];
  for (const m of text.matchAll(EMAIL)) found.push({ kind: "email", text: m[0], key: m[0] });
  text = text.replace(EMAIL, " ");
  for (const m of text.matchAll(SCHEME_URL)) found.push({ kind: "link", text: m[0], key: m[0] });
  text = text.replace(SCHEME_URL, " ");
  for (const m of text.matchAll(BARE_DOMAIN)) found.push({ kind: "link", text: m[0], key: m[0] });
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, "");
    const phrase = m[0].trim();
    if (digits.length < 7 || digits.length > 15 || NOT_PHONE.some((r) => r.test(phrase))) continue;
    found.push({ kind: "phone", text: phrase, key: digits });
  }
  return [...found, ...overrides(text)];
}

const NAMES: Record<Finding["kind"], string> = {
  phone: "a phone number",
  link: "a link",
  email: "an e-mail address",
  override: "an instruction to set earlier instructions aside",
};

/** Why the gate refuses `candidate`: each risky thing it has that `production` has not, once. */
export function addedRisks(production: string, candidate: string): string[] {
  const known = new Set(findRisky(production).map((f) => `${f.kind}:${f.key}`));
  const reasons = new Set<string>();
  for (const f of findRisky(candidate)) {
    if (!known.has(`${f.kind}:${f.key}`))
      reasons.add(`the candidate adds ${NAMES[f.kind]} that production does not have: ${JSON.stringify(f.text)}`);
  }
  return [...reasons];
}
