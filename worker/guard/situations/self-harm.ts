import { ARRANGEMENTS, LEAVING_FOR_SOMEWHERE, MEANS, NOT_AROUND } from "./goodbyes.ts";
import { context, sign, unlessSaid, when, zhGap, type SituationModel } from "./sign.ts";

/**
 * Suicide said without the word: goodbyes, being a burden, a plan or the means at hand, wishing not
 * to wake (the warning signs of the American Foundation for Suicide Prevention and NICE NG225).
 */
const FAREWELL = sign(
  "farewell",
  [
    "(?:don't|do not) see the point (?:in|of) (?:anything|living|life|going on)",
    "tired of (?:living|life|being alive)",
    "ending (?:things|it all|my life)",
    "end things",
    "so (?:that )?(?:i|he|she|they) (?:doesn't|don't|won't|never) wake up",
    "after everyone goes to bed",
    "(?:written|wrote|left|writing) (?:a |my )?(?:goodbye|suicide|farewell)? ?(?:letters?|notes?)",
    "goodbye (?:letters?|notes?|messages?)",
    "(?:this is|saying) (?:my )?(?:goodbye|the last)",
    "(?:won't|will not|wont) be (?:a problem|a burden|around|here) (?:for (?:anyone|anybody|you) )?(?" +
      ":much |any )?longer",
    "(?:won't|will not) be (?:a problem|a burden) (?:for|to) (?:anyone|anybody|you)",
    "(?:better|happier) off without me",
    "(?:everyone|they|you all|my family|my kids) (?:would|will|'d)(?: all)? be better off",
    "(?:don't|do not) want to be (?:here|alive|around) (?:anymore|any more|now)",
    "(?:this is )?my (?:last|final) (?:message|words|night)",
    "said my goodbyes",
    "(?:cut|cutting|slit|slashed) (?:my|his|her) wrists?",
    "(?:cut|cutting) (?:too |really |so |very )?deep(?:ly)?",
    "i want to end it",
    "end it all",
    "(?:given|gave|giving) away (?:my|all my|all of my)",
    "(?:given|gave) my (?:cat|dog|pets?) to",
    "(?:when|after) i'm gone",
    "(?:don't|do not) want to (?:live|be alive|exist|wake up)",
    "wish i (?:could|would)? ?(?:just )?(?:disappear|die|not wake up|never wake up|sleep forever|wasn't alive)",
    "want to (?:disappear|sleep forever|not exist|not wake up|never wake up)",
    "no (?:reason|point) (?:to|in) (?:live|living|go on|going on)",
    "end (?:it|my life|everything)(?: all)? (?:tonight|today|now)",
    // AFSP warning signs: putting affairs in order, wanting not to wake.
    "(?:put|putting|got|getting|have|has) (?:her|his|my|their) affairs in order",
    "(?:make|let) (?:me|myself) (?:not|never) wake up",
    "(?:want|wish) (?:it all|everything) to (?:end|stop|be over)",
    // Thwarted belonging and burden, said as a fact about the world without them (Joiner; AFSP).
    "(?:everyone|everybody|they|you all|my family|my kids) (?:would|will|'d)(?: all)? be (?:happier|fine|better) " +
      "(?:if i (?:was|were|wasn't|weren't)|without me)",
    "(?:nobody|no one) would (?:even )?(?:notice|care|miss me) if i (?:was|were|died|disappeared)",
    "(?:drive|crash|steer) (?:my|the) car into",
    "(?:jump|step|walk) in front of (?:a|the) (?:train|bus|lorry|truck|car)",
    "walk into the (?:sea|river|traffic)",
    "(?:started )?cutting (?:myself )?again",
  ],
  [
    "下辈子",
    "想好怎么走",
    "(?:猫|狗|东西).{0,3}送人",
    "不用再麻烦",
    "活着好累",
    "不想再?撑",
    "活着有什么意思",
    "今天就结束",
    "不该活着",
    "(?:一起|一齐)(?:死|走)",
    "带.{0,4}(?:一起|一齐)走",
    "遗书",
    "留了信",
    "东西都送人",
    "交代后事",
    "不会再麻烦",
    "再也不会麻烦",
    "没有我.{0,4}更好",
    "(?:想|希望自己|好想) ?(?:消失|disappear)",
    "最后一(?:条|封|次)(?:消息|信息|留言)",
    "(?:想|希望|要|让)一切(?:都)?结束",
    `(?:后事|家里的事)${zhGap(4)}安排好`,
    "不想再?醒",
    "不想(?:再)?活(?!在|成|得像)",
    "不想再生存",
    "活不下去",
    "撑不下去",
    "一了百了",
    "了结",
    "结束(?:自己的)?(?:生命|一切)",
    "想好怎么做了",
    "解脱",
    "下辈子再见",
    "最后一次(?:跟|和)(?:你们|我|大家)(?:说话|联系|道别|告别|说再见)",
    "不想拖累",
    "拖累(?:你们|大家|家人)",
    "活着太累",
    "没必要活",
    "不如死了",
    "死了算了",
    "割腕",
    "割得很深",
    "划得很深",
    "准备好了?炭",
    "安眠药都?存好",
    "药都?存好",
    "(?:在|又|一直)(?:割|划)(?:手|自己|腕)",
  ],
);

/** Feeling trapped, a burden, in pain that must stop: AFSP warning signs, with a means or a decision an emergency. */
const HOPELESS = sign(
  "trapped or a burden",
  [
    "no way out",
    "(?:want|need) the pain to stop (?:forever|for good|permanently)",
    "(?:i'm|i am) (?:just )?a burden",
    "nothing (?:left )?to live for",
    "can't (?:go on|do this|take (?:it|this)) (?:anymore|any more|like this)",
  ],
  ["(?:活着|我)(?:就)?是(?:个|一个)?(?:负担|累赘)", "没有出路", "走投无路", "活着太痛苦", "生不如死"],
);
/** A time set: with feeling trapped, a plan (NICE NG225's high-risk features). */
const TIME_SET = sign(
  "a time set",
  ["tonight (?:is|'s) (?:it|the night)", "(?:this|tonight) is the end"],
  ["就今晚", "今晚就"],
);

/** Said alone, these are ordinary; a goodbye with resolve, or with silence after, is not. */
const GOODBYE = sign(
  "goodbye",
  [
    "goodbye(?! for now)",
    "bye everyone",
    "sorry for everything",
    "farewell",
    "can't go on",
    "i love you,? (?:and )?i'?m sorry",
    "i love you all",
    "take care of (?:mum|mom|dad|the kids|them|everyone|my (?:kids|children|cat|dog))",
    "said sorry to everyone",
  ],
  ["谢谢大家", "永别", "告别", "再见了", "对不起大家", "bye everyone", "照顾好(?:爸妈|爸爸|妈妈|孩子|他们|我妈|我爸)"],
);
const RESOLVE = sign(
  "resolve",
  [
    "made up my mind",
    "the last thing i'?m (?:doing|going to do)",
    "can't (?:do this|take (?:it|this)) anymore",
    "(?:won't|will not) (?:bother|trouble) (?:you|anyone)",
    "it's (?:the )?time",
  ],
  ["想好了", "决定了", "不会再麻烦", "以后不会再", "最后一次"],
);

/** The means at hand, or being at the place: a plan made and ready (a high-risk sign in NICE NG225). */
const PLAN = sign(
  "plan or means",
  [
    "how high (?:the|a) (?:bridge|building|roof)",
    "looking up (?:how|ways) to (?:die|end)",
    "(?:looking|looked|searching|searched) (?:up|online|for) how (?:many|much) [^.]{0,40}(?:it would take|to take)",
    "(?:got|have|found|took|bought) (?:my |his |her |my dad's |a |the )?(?:gun|rifle|pistol)",
    "sav(?:ed|ing) up (?:my |all my |the )?(?:\\w+ )?(?:pills|tablets|meds)",
    "have enough (?:pills|tablets) now",
    "my plan is",
    "after (?:my family|everyone) (?:sleeps|is asleep|goes to bed)",
    "(?:saved|stockpiled|hoarded|collected) (?:up )?(?:all )?(?:of )?(?:the |my )?(?:pills|tablets|meds)",
    "(?:have|got) the (?:razor|blade|knife|rope|pills|gun) ready",
    "(?:razor|blade|knife|rope|gun) (?:is |are )?ready",
    "(?:wants?|going|gonna|says? (?:she|he) (?:will|wants? to)) (?:to )?jump (?:off|from)",
    "jump off (?:the |a )?(?:roof|bridge|building|balcony)",
    "pills (?:are )?(?:counted|ready|saved|lined up)",
    "(?:counted|saved|stockpiled|hoarded) (?:out )?(?:the |my |all )?(?:pills|tablets)",
    "(?:standing|sitting) on (?:the |a )?(?:edge|ledge|bridge|roof|balcony|railing)",
    "going to jump",
    "(?:bought|got|have) (?:a )?(?:rope|charcoal)",
    "when everyone is asleep",
    "tonight's the night",
    "stash of (?:pills|tablets|meds)",
    "(?:pills|tablets|meds) (?:\\w+ ){0,3}(?:collecting|saving|hoarding|stockpiling)",
  ],
  [
    "刀片",
    "刀.{0,6}手上",
    "一头扎进去",
    "跳江",
    "在(?:天台|楼顶|桥上|窗台)",
    "刀.{0,6}(?:在手边|准备好|准备好了)",
    "要 ?jump",
    "药都?(?:准备|存|攒)好",
    "(?:网上)?查.{0,4}怎么(?:死|自杀)",
    "站在.{0,4}(?:楼顶|天台|桥|窗台|边上)",
    "准备好了?炭",
    "买了?炭",
    "买了?绳子",
    `炭${zhGap(10)}(?:买好|准备好|买了)`,
    "今晚就",
  ],
);

/** Asking for a dose that would kill, for oneself: counts even as a question. */
const LETHAL_QUESTION = context(
  "lethal dose asked",
  [
    "dose[^.]{0,60}(?:not|never) wake up",
    "(?:fatal|lethal|deadly) (?:dose|amount)",
    "dose[^.]{0,60}(?:fatal|lethal|kill (?:me|myself|you))",
    "how (?:many|much)[^.]{0,60}(?:to (?:die|kill (?:me|myself))|would be fatal|is fatal)",
    "(?:quickest|easiest|fastest|painless|best|surest) (?:\\w+ )?ways? to (?:die(?! (?:my|your|his|her|the) " +
      "(?:hair|brows|eyebrows|lashes|beard))|kill (?:me|myself)|end it)",
    "(?:take|swallow) (?:\\d{2,}|all)[^.]{0,30}(?:will (?:it|that) be quick|will i die|would i die)",
  ],
  ["致死量", "吃多少.{0,6}(?:会死|能死|死)", "怎么死.{0,3}(?:不痛|快)", "怎样自杀", "无痛.{0,3}死"],
);

const NO_ANSWER = sign(
  "not answering",
  [
    "not (?:answering|picking up)",
    "isn't answering",
    "won't answer",
    "phone (?:is )?off",
    "(?:not|hasn't|isn't|stopped) (?:replying|responding|answering)",
    "no reply",
    "(?:hasn't|has not|not) (?:replied|responded|read (?:it|my))",
  ],
  [
    "打不通",
    "不接电话",
    "联系不上",
    "电话关机",
    "不回信息",
    "不(?:覆|回)(?:信息|消息|我|了)?",
    "没(?:有)?回(?:复|覆)?",
    "已读不回",
  ],
);

const OVERDOSE_TO_DIE = sign(
  "overdose to die",
  ["(?:took|taken|swallowed) [^.]{0,30}(?:to (?:die|end it|not wake up)|so i (?:don't|won't) wake up)"],
  ["药已经吃下去了", "(?:吃|吞)了.{0,8}药.{0,10}(?:不想|想死|结束)", "一整瓶.{0,10}(?:不想|想死)"],
);

export const SELF_HARM: SituationModel = {
  id: "self_harm",
  sources: [
    "NICE NG225: Self-harm: assessment, management and preventing recurrence",
    "American Foundation for Suicide Prevention: Risk factors, protective factors and warning signs",
    "WHO: LIVE LIFE, an implementation guide for suicide prevention in countries, 2021",
    "北京心理危机研究与干预中心: 自杀风险评估的危险信号",
  ],
  combinations: [
    when("self_harm", FAREWELL),
    when("self_harm", PLAN),
    when("self_harm", OVERDOSE_TO_DIE),
    when("self_harm", LETHAL_QUESTION),
    when("self_harm", GOODBYE, RESOLVE),
    when("self_harm", GOODBYE, NO_ANSWER),
    when("self_harm", GOODBYE, MEANS),
    when("self_harm", HOPELESS, MEANS),
    when("self_harm", HOPELESS, PLAN),
    when("self_harm", HOPELESS, TIME_SET),
    when("self_harm", RESOLVE, MEANS),
    unlessSaid(LEAVING_FOR_SOMEWHERE, when("self_harm", NOT_AROUND, ARRANGEMENTS)),
    unlessSaid(LEAVING_FOR_SOMEWHERE, when("self_harm", NOT_AROUND, GOODBYE)),
    unlessSaid(LEAVING_FOR_SOMEWHERE, when("self_harm", ARRANGEMENTS, ARRANGEMENTS)),
  ],
};
