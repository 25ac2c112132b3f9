import { context, sign } from "./sign.ts";

/** Obstetric red flags beyond bleeding and pain: infection after birth, a blow to the bump, fluids kept down. */

/** Discharge that smells after a birth or a miscarriage: genital tract sepsis (RCOG Green-top 64b). */
export const FOUL_LOCHIA = sign(
  "foul discharge",
  ["(?:smelly|foul|offensive|bad[- ]smelling) (?:discharge|lochia|bleeding)", "discharge (?:that )?(?:smells|stinks)"],
  ["恶露.{0,4}(?:臭|异味|难闻)", "分泌物.{0,4}(?:臭|异味)"],
);

/** Any fall or blow in pregnancy with pain or bleeding needs the maternity unit now (RCOG; NHS). */
export const TRAUMA = context(
  "fall or blow",
  [
    "fell",
    "fall(?:en)?",
    "slipped",
    "car (?:crash|accident)",
    "(?:hit|kicked|punched) (?:in|on) (?:the|my|her) (?:stomach|tummy|bump|belly)",
  ],
  ["摔", "跌", "车祸", "撞到肚子", "被打"],
);
export const CRAMPING = sign(
  "tummy pain",
  [
    "cramp\\w*",
    "(?:tummy|stomach|belly|bump|abdominal) (?:pain|hurts|ache)",
    "(?:pain|hurts) in (?:my|her) (?:tummy|stomach|belly|bump)",
  ],
  ["(?:肚子|下腹|小腹|腹部).{0,4}(?:痛|疼)", "宫缩"],
);

/** Nothing kept down, not even water: hyperemesis with dehydration (NHS; RCOG Green-top 69). */
export const CANT_KEEP_DOWN = sign(
  "nothing kept down",
  [
    "can't keep (?:any )?(?:water|fluids|anything|food or water|drinks?) down",
    "(?:vomit|throw|throwing)\\w*(?: up)? (?:even )?water",
  ],
  ["喝水(?:都|也)吐", "(?:什么|啥)都吃不下.{0,6}吐", "吐得.{0,6}(?:喝不下|吃不下)"],
);

/** Bleeding said as happening (not "no bleeding"): the context sign counts even when denied. */
export const BLEEDING_NOW = sign("bleeding now", ["bleed\\w*", "blood", "bled", "spotting"], ["见红", "出血", "流血"]);
