import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../../worker/sales/compliance-rules.ts";
import { checkCompliance } from "../../../worker/sales/compliance.ts";

/**
 * Every built-in rule's rewrite in the sentences a rep would write, read back whole: the rewrite must
 * fit the grammar around it (a plain word swap gives "designed to to helps care for eczema").
 */
const CASES: Array<[rule: string, said: string, rewritten: string]> = [
  [
    "price never changes",
    "Don't worry, the price will never go up.",
    "Don't worry, this price is valid until the quote expires.",
  ],
  ["price never changes", "Our prices won't ever increase.", "This price is valid until the quote expires."],
  ["lowest price", "This is the lowest price on the market.", "This is a competitive price."],
  ["lowest price", "That is our lowest price.", "That is our competitive price."],
  ["lowest price", "Lowest price guaranteed!", "Competitive price!"],
  ["price guarantee", "I guarantee you this price forever.", "I offer you this price until the quote expires."],
  ["price guarantee", "We locked in the discount for life.", "We offered the discount until the quote expires."],
  ["guaranteed price", "You get a guaranteed price.", "You get a quoted price."],
  ["永不涨价", "我们永不涨价。", "我们在报价有效期内不涨价。"],
  ["永不涨价", "放心，永远不会涨价。", "放心，在报价有效期内不涨价。"],
  ["价格永远不变", "这个价格永远不变。", "这个报价在有效期内不变。"],
  ["最低价", "这是全网最低价。", "这是有竞争力的价格。"],
  ["保证价格", "我们保证价格不变。", "我们在报价有效期内保持价格不变。"],
  ["cure", "Tell the clinic it cures eczema.", "Tell the clinic it helps soothe eczema."],
  ["cure", "It cured my eczema in a week.", "It helped soothe my eczema in a week."],
  ["cure", "It will cure your acne.", "It will help soothe your acne."],
  ["cure", "It is great at curing rosacea.", "It is great at helping soothe rosacea."],
  ["cure", "This is a cure for eczema.", "This is a soothing option for eczema."],
  ["cure", "Try this miracle cure.", "Try this effective soothing option."],
  ["cure (passive)", "Your eczema will be completely cured.", "Your eczema will be soothed."],
  [
    "guaranteed",
    "Tell the clinic it is guaranteed to cure eczema.",
    "Tell the clinic it is likely to help soothe eczema.",
  ],
  ["guaranteed", "The serum is guaranteed to work.", "The serum is likely to work."],
  ["guaranteed", "It's a cream guaranteed to hydrate.", "It's a cream designed to hydrate."],
  ["guaranteed", "Guaranteed results in 7 days.", "Typical results in 7 days."],
  ["guaranteed", "Results guaranteed!", "Results expected!"],
  ["guaranteed", "We guarantee results.", "We expect results."],
  ["guaranteed", "This cream guarantees clear skin.", "This cream is designed to give clear skin."],
  ["guaranteed", "It comes with a guarantee of results.", "It comes with an assurance of results."],
  ["100% effective", "It is 100% effective.", "It is effective for many users."],
  ["100% safe", "It is 100 percent safe for children.", "It is well tolerated by most users for children."],
  ["100% results", "You will see 100% results.", "You will see visible results for many users."],
  ["no side effects", "It has no side effects.", "It has few reported side effects."],
  ["no side effects", "A gentle cream without any side-effects.", "A gentle cream with few reported side effects."],
  ["no side effects", "There are zero side effects.", "There are few reported side effects."],
  ["miracle", "It works like a miracle.", "It works very well."],
  ["miracle", "This is a miracle cream.", "This is an effective cream."],
  ["miracle", "It's a miracle!", "It's a real help!"],
  ["permanent", "It permanently removes scars.", "It lastingly removes scars."],
  ["permanent", "The results are permanent.", "The results are long-lasting."],
  ["treats", "It treats eczema.", "It helps care for eczema-prone skin."],
  ["treats", "Does it heal acne?", "Does it help care for acne-prone skin?"],
  ["treats", "It healed my psoriasis.", "It helped care for my psoriasis-prone skin."],
  ["保证治愈", "本品保证治愈湿疹。", "本品有助于改善湿疹。"],
  ["根治/治愈", "本品可根治湿疹。", "本品可改善湿疹。"],
  ["根治/治愈", "湿疹已经治好了。", "湿疹已经改善了。"],
  ["保证有效", "这款产品保证有效。", "这款产品对多数人有效。"],
  ["保证有效", "它是100%有效的。", "它是对多数人有效的。"],
  ["保证效果", "我们保证效果。", "我们力求效果。"],
  ["保证见效", "坚持三天保证见效。", "坚持三天通常能见效。"],
  ["无副作用", "这款面霜没有任何副作用。", "这款面霜多数人耐受良好。"],
];

describe("compliance rewrites read as sentences", () => {
  it.each(CASES)("%s: %s", (rule, said, rewritten) => {
    const r = checkCompliance(said);
    expect(r.violations.map((v) => v.rule)).toContain(rule);
    expect(r.rewritten).toBe(rewritten);
    // Each span's rewrite is what stands in the sentence (up to an article fitted before it).
    for (const v of r.violations) expect(said.slice(v.span[0], v.span[1])).toBe(v.text);
  });

  it("has a sentence for every built-in rule", () => {
    const covered = new Set(CASES.map(([rule]) => rule));
    expect([...new Set(BUILT_IN.map((r) => r.rule))].filter((r) => !covered.has(r))).toEqual([]);
  });

  it("leaves true statements and a warning about price alone", () => {
    for (const text of ["There is no cure for eczema, but this cream soothes it.", "The price will go up in May."])
      expect(checkCompliance(text).compliant).toBe(true);
  });
});
