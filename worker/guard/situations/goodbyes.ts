import { sign, zhGap } from "./sign.ts";

/** A goodbye said by arrangements: not being around, a pet rehomed, bookings cancelled, a place named. */

/** Saying they will not be here, and settling what they leave: together a goodbye (AFSP warning signs). */
export const NOT_AROUND = sign(
  "not around",
  ["(?:won't|will not) be (?:around|here|alive) (?:after|by|past|beyond|next|for much|much longer|anymore|any more)"],
  ["我(?:就|也|已经)?不在了"],
);

export const ARRANGEMENTS = sign(
  "arrangements made",
  [
    "(?:cat|dog|pets?|kids?|children) (?:is|are|will be) (?:going|staying) (?:to|with) (?:my|a|her|his)",
    "cancel (?:all )?(?:of )?(?:my )?(?:upcoming |future )?(?:bookings|appointments)",
    "give the money to (?:whoever|someone|charity)",
    "(?:written|wrote|left) (?:a )?letters? (?:to|for) (?:my|everyone)",
    "(?:wrote|written|made|updated) my will",
    "(?:said sorry|apologi[sz]ed) to everyone",
  ],
  [
    `(?:猫|狗|孩子|宠物)${zhGap(4)}托付`,
    `(?:所有|全部|下个月的?)?预约${zhGap(4)}取消`,
    "以后(?:用不着|不需要)了",
    "信(?:也|都)?写好了",
    `(?:后事|家里的事|事情)${zhGap(4)}安排好`,
  ],
);

export const MEANS = sign(
  "a means or a place",
  [
    "(?:the|a) (?:bridge|roof|cliff|railway|train tracks?|rope|ledge)",
    "(?:my |his |her |my dad's |a |the )(?:gun|rifle|pistol|razor blades?)",
    "all (?:of )?(?:my |the |her |his )(?:sleeping )?(?:pills|tablets)",
    "(?:my |the |her |his )sleeping (?:pills|tablets)",
  ],
  [
    "桥",
    "楼顶",
    "天台",
    "铁轨",
    "绳子",
    "炭",
    "药(?:我)?(?:已经)?(?:准备|存|攒)好?了?",
    "刀(?:就)?在(?:旁边|手边|手上)",
  ],
);

/** Leaving for somewhere: a move, a trip or a stay abroad explains cancelled bookings and a pet with family. */
export const LEAVING_FOR_SOMEWHERE = new RegExp(
  "(?<![a-z])(?:moving|relocat\\w*|emigrat\\w*|holiday|vacation|travel\\w*|trip|abroad|overseas|deployment|" +
    "new job)(?![a-z])|搬家|出国|移民|旅游|旅行|出差|调职",
);
