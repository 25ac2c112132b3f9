/**
 * A message framed as information, not as something happening to anyone here: a story or film, the
 * news, a study, a first-aid lesson, a hypothetical ("what should you do if someone is choking").
 * Emergency words inside such a frame do not raise the card, unless the visitor also says it is now.
 */
const FRAME = new RegExp(
  [
    // Words a clinical message also uses ("a series of seizures", "episodes of vomiting", "a clinical
    // trial") frame only as a story, a show or research does.
    "(?<![a-z])(?:novels?|(?:a|the|this|that) book|(?:a|the) story|(?:news|bedtime|true|horror|sad|scary) stories|",
    "stories (?:about|where|of)|films?|movies?|(?:tv|the) shows?|",
    "(?:tv|netflix|drama|web|the|a|this|that) series(?! of)|",
    "(?:tv|latest|new|next) episode|episode (?:of|in) (?:the|a|that|this) (?:show|series|drama)|",
    "dramas?|characters?(?! of (?:the|his|her|my|this) (?:pain|rash|cough|breathing))|anime|",
    "(?:in|from|for) (?:a|the|this|my|our) (?:video |computer |board )?games?|",
    "(?:the|a) plot (?:of|where|twist)|plot ?twist|storyline|(?:a|the|this|that) scene (?:where|in|from|of)|",
    "in (?:a|the|this|that) scene|fiction|grey'?s anatomy|news|articles?|headlines?|documentar\\w*|thrillers?|",
    "(?:crime|mystery|detective) (?:novel|book)s?|",
    "d&d|dnd|dungeons|tabletop|rpg|flavou?r text|fan ?fic\\w*|role ?play\\w*|screenplay|",
    "(?:bbc|cnn|sky|reuters|guardian|daily mail|newspaper) (?:story|article|report|piece)|",
    "podcasts?|celebrit\\w*|actors?|actress|singer|protocols?|endpoints?|ctcae|",
    "trial (?:protocol|design|endpoints?|data|results|participants?|sites?|arm)|(?:in|for|of) (?:our|the|this) trial|",
    "stud(?:y|ies) (?:found|finds|show\\w*|says|suggest\\w*|protocol|participants?|design|data|site)|",
    "(?:in|for|of) (?:a|the|our|this) study|(?:our|this) stud(?:y|ies)|",
    "adverse events?|sample size|research\\w*|textbooks?|exams?|quiz|lectures?|first aid (?:course|class|training)|",
    "cpr (?:course|class|training)|just want to be prepared|in case (?:it|this) (?:ever )?happens|",
    "(?:what|how) (?:should|do|would|can) (?:you|one|we|people|i) do (?:if|when)|",
    "(?:if|when|in case) (?:someone|somebody|a person|people|one|your (?:child|kid|baby))|",
    "how do (?:i|you|we) (?:know|tell) if|(?:staff|team) training|for training|training materials?|selling|",
    "purchasing|supplier|turned out (?:to be )?fine|teach (?:my|the|our) (?:babysitter|nanny|staff|kids?|children)|",
    "never had a reaction|(?:he's|she's|i'm|they're|he is|she is) (?:totally|completely) fine|(?:he's" +
      "|she's|they're|i'm|he is|she is) (?:fine|ok|okay) now)(?![a-z])",
    "|小说|电影|电视剧|剧里|剧情|角色|主角|女主|男主|动漫|游戏里|情节|新闻|报道|文章|明星|研究|试验|终点|",
    "样本量|不良事件|课程|考试|培训|科普|教材|请问有人|急救知识|想学|学一下|提前了解|",
    "(?:如果|万一|假如|要是)(?:身边|家里|路上|旁边|公司|学校)?有人|",
    "后来没事|后来好了|已经没事了|换了就好了|现在好了|已经好了",
  ].join(""),
);

/**
 * Words that put the visitor's own situation now, whatever else the message mentions: a call for help,
 * something that happened just now or suddenly, or the visitor saying what they have done or want for
 * themselves. A film watched, an exam failed or the news read is then the setting, not the subject
 * ("I failed my exams and I don't want to live anymore"; "he was watching a film and suddenly his face
 * drooped").
 */
const NOW = new RegExp(
  [
    "(?<![a-z])(?:help|right now|please|hurry|asap|911|999|112|000|ambulance|call 120|what do i do now|",
    "suddenly|all of a sudden|",
    "just(?! (?:watched|read|saw|seen|finished|heard|started (?:watching|reading)|wan\\w*|wondering|curious|",
    "asking|checking|a question))|",
    // "Now" that starts what is happening to someone, not a show watched now or a question asked now.
    "(?:and|but|so) now(?! (?:i'm|i am) (?:worried|wondering|curious|scared))|",
    "now (?:he|she|he's|she's|his|her|my|we|they|they're|it's|i can't|i'm (?:bleeding|shaking|dizzy|vomiting))|",
    "(?:is|are|keeps?) getting worse|",
    "i(?:'ve| have)? (?:taken|took|swallowed|written|wrote|cut|overdosed)|i(?:'ve| have) got (?:the|a|my)|",
    "i have (?:the|a) (?:rope|gun|pills|knife|blade)|i (?:don't|do not) want to (?:live|be alive|be here|wake up)|",
    "i want to die|i'm going to (?:kill|end|jump))(?![a-z])",
    "|救命|现在(?!(?:已经|都)?(?:好了|没事|正常|恢复))|马上|赶紧|快点|正在|刚刚|刚才|怎么办啊|",
    "突然|一直|还在|今晚|我不想活|我想死|我要(?:自杀|跳)",
  ].join(""),
);

export function framedAsInformation(text: string): boolean {
  return FRAME.test(text) && !NOW.test(text);
}
