import { rule, type EmergencyRule } from "./rule-types.ts";

/**
 * English phrasings of an emergency, on normalized text (normalize.ts). Written from how people
 * describe what is happening ("my chest feels like it's being crushed"), not only the clinical
 * names; a clinical name alone ("stroke", "heart attack") counts only when it is happening.
 * Order matters only for the category reported: the crisis rules come first.
 */
// One word and what follows it; never a negation, so "my chest doesn't hurt" is not "chest ... hurt".
const W = "(?:(?!(?:no|not|never|isn't|wasn't|doesn't|don't|didn't|aren't|without)\\b)[\\w']+\\W+)";
const PAIN =
  "(?:pain|pains|painful|hurts?|hurting|ache|aches|aching|pres" +
  "sure|tight|tightness|squeez\\w*|crush\\w*|heavy|heaviness|st" +
  "abbing|burning and)";
const NOW =
  "(?:having|am having|i'm having|is having|he's having|she's " +
  "having|might be having|may be having|could be having|think " +
  "\\w+ (?:is |am |are |'s )?having|just had|going into|in the " +
  "middle of)";
const MEDS =
  "(?:pills|tablets|capsules|paracetamol|tylenol|acetaminophen" +
  "|ibuprofen|advil|aspirin|sleeping " +
  "pills|xanax|oxy\\w*|meds|medication|medicine|antidepressants" +
  "|insulin)";
const MANY =
  "(?:[1-9]\\d+|twenty|thirty|forty|fifty|a handful of|a " +
  "whole bottle of|the whole bottle of|a bottle of|all (?:of " +
  ")?(?:my|his|her|the|their)|too many|way too many|a lot " +
  "of|loads of|a box of|a whole box of|the whole box of|a " +
  "bunch of|a ton of|a fistful of)";
const CHILD = "(?:toddler|baby|son|daughter|kid|child|boy|girl|he|she|they)";

export const EN_RULES: EmergencyRule[] = [
  // Suicidal thoughts and self-harm: the crisis variant.
  rule("self_harm", /\b(?:kill|killing|hurt|hurting|harm|harming|cut|cutting|burn|burning|starve|starving) myself\b/g),
  rule("self_harm", /\b(?:kill|killing|hurt|harm|cut|cutting) (?:himself|herself|themselves|themself)\b/g),
  rule("self_harm", /\bsuicid(?:e|al)\b/g),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\b(?:wants|wanted|says (?:she|he|they) wants?|",
        "said (?:she|he|they) wanted) to (?:die|end it|",
        "kill (?:himself|herself|themselves))\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\b(?:going to|gonna|want to|will|about to|",
        "plan to) (?:take|swallow) (?:them|these|",
        "those|it|all of them) all\\b|\\b(?:to|and|",
        "then) (?:never|not) wake up\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\bhow (?:many|much)\\W+(?:\\w+\\W+){0,6}?(?:to die|",
        "to kill (?:me|myself)|would kill|is lethal|",
        "to not wake up|to never wake up|lethal dose)\\b|",
        "\\blethal dose\\b",
      ].join(""),
      "g",
    ),
    undefined,
    true,
  ),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\b(?:want|wanted|wanting|going|plan|planning|",
        "ready|tempted|trying|tried|thinking about how) to (?:die|",
        "end it|end it all|end my life|end things|",
        "not be here|not wake up|disappear forever|",
        "not exist)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("self_harm", /\b(?:end|ending|take|taking) (?:my|his|her|their) (?:own )?life\b/g),
  rule("self_harm", /\bend(?:ing)? (?:it|this) all\b/g),
  rule(
    "self_harm",
    /\b(?:don't|do not|didn't|no longer) (?:want|wish) to (?:live|be alive|be here|exist|wake up|go on)\b/g,
  ),
  rule("self_harm", /\bno (?:reason|point|will) (?:to live|in living|to go on|living|in going on)\b/g),
  rule("self_harm", /\bbetter off (?:dead|without me|if i (?:was|were) gone|if i died)\b/g),
  rule("self_harm", /\b(?:life|living) (?:isn't|is not|ain't) worth (?:it|living)\b|\bnot worth living\b/g),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\bwish (?:i|i'd) (?:was|were|had) (?:dead|",
        "died|never been born)\\b|\\bwish i (?:wasn't|",
        "was not|weren't) (?:alive|born|here)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("self_harm", /\bself[- ]?harm(?:ing)?\b/g),
  rule(
    "self_harm",
    new RegExp(
      [
        "\\b(?:jump|jumping|throw myself) (?:off|from|",
        "in front of) (?:a|the|this|my) (?:bridge|",
        "roof|building|balcony|cliff|train|window)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "self_harm",
    new RegExp(
      `\\b(?:want|going|plan|planning|thinking about|tempted) to ` +
        `(?:take|swallow|overdose on) ${MANY} ?${W}{0,2}${MEDS}\\b`,
      "g",
    ),
  ),
  rule("self_harm", /\b(?:saving|stockpiling|hoarding|collecting) (?:up )?(?:my |the )?(?:pills|tablets|meds)\b/g),
  rule(
    "self_harm",
    /\b(?:wrote|writing|written) (?:a |my )?(?:suicide |goodbye )?note\b/g,
    /\b(?:goodbye|end|die|gone|forever|anymore)\b/,
  ),
  // Harm to others.
  rule(
    "harm_to_others",
    new RegExp(
      [
        "\\b(?:want|going|gonna|plan|planning|ready|",
        "about|thinking about|urge|feel like|tempted|",
        "scared i'll|afraid i'll|afraid i might|scared i might|",
        "worried i'll|worried i might|i'll|i will|",
        "might) (?:to )?(?:kill|murder|stab|shoot|",
        "strangle|smother|hurt|harm|shake|drown) (?:him|",
        "her|them|my \\w+|the baby|someone|somebody|",
        "people|everyone|everybody)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("harm_to_others", /\b(?:shoot|shooting) up (?:the|my|a|our) (?:school|office|class|workplace|mall|church)\b/g),
  rule(
    "harm_to_others",
    new RegExp(
      [
        "\\b(?:bring|bringing|take|taking) (?:a|my|",
        "his|the) (?:gun|knife|rifle|weapon) to (?:school|",
        "work|class|the office)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "harm_to_others",
    new RegExp(
      [
        "\\b(?:he|she|they|someone|a man|a guy|my \\w+) (?:is |",
        "has |just )*(?:threatening|threatened) (?:to kill|",
        "me with a (?:knife|gun))\\b",
      ].join(""),
      "g",
    ),
  ),
  // The heart.
  rule("cardiac", new RegExp(`\\bchest\\W+${W}{0,4}?${PAIN}`, "g")),
  rule("cardiac", new RegExp(`\\b${PAIN}\\W+${W}{0,3}?chest\\b`, "g")),
  rule(
    "cardiac",
    new RegExp(
      [
        "\\b(?:elephant|weight|brick|tonne|ton) (?:is )?(?:sitting|",
        "standing|on|pressing)\\W+(?:\\w+\\W+){0,3}chest\\b|",
        "\\bchest\\W+(?:\\w+\\W+){0,8}(?:elephant|vice|",
        "vise)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("cardiac", new RegExp(`\\b${NOW} (?:a |another )?heart attack\\b`, "g")),
  rule(
    "cardiac",
    new RegExp(
      [
        "\\b(?:squeez\\w*|crush\\w*|stabbing|sharp pain|",
        "pressure|vice|vise)\\W+(?:\\w+\\W+){0,3}?heart\\b(?! ?(?:rate|",
        "beat|burn|health|disease|failure))",
      ].join(""),
      "g",
    ),
  ),
  rule("cardiac", new RegExp(`\\bheart\\W+${W}{0,5}?(?:squeezed|squeezing|crushed|crushing|in a vi[cs]e)\\b`, "g")),
  rule(
    "cardiac",
    new RegExp(
      [
        "\\b(?:clutch\\w*|grabb\\w*|gripping|holding|",
        "pressing on) (?:his|her|my|their|at (?:his|",
        "her|my|their)) (?:chest|heart)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("cardiac", /\bheart attack (?:right now|now|happening)\b|\b(?:is|am|i'm) i having a heart attack\b/g),
  rule(
    "cardiac",
    new RegExp(
      [
        "\\b(?:pain|ache|tightness) (?:is )?(?:spreading|",
        "radiating|going|moving|shooting) (?:down|",
        "up|into|to) (?:my|his|her) (?:left )?(?:arm|",
        "jaw|neck)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("cardiac", /\b(?:no pulse|heart (?:has )?stopped|cardiac arrest|doing cpr|started cpr)\b/g),
  // Stroke signs.
  rule(
    "stroke",
    new RegExp(
      [
        "\\b(?:face|mouth|smile|lip|eye|eyelid) (?:is |",
        "looks |seems |has |started |suddenly |all |",
        "gone |went |kind of )*(?:droop\\w*|lopsided|",
        "crooked|sagging|uneven|twisted)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("stroke", /\bdroop\w* (?:on )?(?:one|the left|the right|1) side\b/g),
  rule(
    "stroke",
    new RegExp(
      [
        "\\bone side of (?:my|his|her|their) (?:face|",
        "body|mouth)\\W+(?:\\w+\\W+){0,4}?(?:droop\\w*|",
        "numb|weak|can't move|won't move|paraly\\w*|",
        "dead|not working)",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "stroke",
    /\b(?:numb|numbness|weak|weakness|paraly\w*|can't feel) (?:on|down|in) (?:one|the left|the right|1) side\b/g,
  ),
  rule(
    "stroke",
    new RegExp(
      [
        "\\bslurr(?:ed|ing) (?:his |her |my |their )?(?:words|",
        "speech|talking)\\b|\\b(?:speech|talking|words) (?:is |",
        "are |became |suddenly )*slurr(?:ed|ing)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "stroke",
    new RegExp(
      [
        "\\b(?:sudden|suddenly|out of nowhere|all of a sudden|",
        "without warning) \\W*(?:\\w+\\W+){0,3}?(?:numb|",
        "weak|confused|can't speak|can't talk|can't see|",
        "went blind|lost (?:vision|sight)|worst headache|",
        "can't walk straight|can't find (?:his|her|",
        "my) words)",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "stroke",
    /\bcan't (?:lift|raise|move|feel|grip with) (?:my|his|her|their) (?:left |right )?(?:arm|leg|hand|side)\b/g,
  ),
  rule(
    "stroke",
    new RegExp(`\\b(?:left|right|one) side\\W+${W}{0,3}?(?:weak|numb|dead|limp|heavy|droopy|paraly\\w*)\\b`, "g"),
  ),
  rule("stroke", /\bworst headache (?:of|in) (?:my|his|her|their) life\b/g),
  rule(
    "stroke",
    new RegExp(
      `\\b${NOW} (?:a |another )?(?:mini[- ]?)?stroke\\b|\\bhad ` +
        `(?:a |another )?stroke (?:an? |\\d+ |few ` +
        `)?(?:minutes?|hours?|hour) ago\\b|\\bhad a stroke (?:this ` +
        `morning|today|tonight|just now)\\b`,
      "g",
    ),
  ),
  // Breathing.
  rule(
    "breathing",
    new RegExp(
      [
        "\\b(?:can't|couldn't|can barely|barely|unable to|",
        "struggling to|struggle to|hard to|difficult to|",
        "fighting to|hardly) breathe?\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "breathing",
    /\b(?:trouble|difficulty|difficulties|problems?|hard time|struggling|labou?red|laboured) (?:with )?breathing\b/g,
  ),
  rule("breathing", /\b(?:not|isn't|stopped|has stopped|quit|isnt) breathing\b/g),
  rule("breathing", /\bshort(?:ness)? of breath\b/g),
  rule(
    "breathing",
    /\b(?:struggling|fighting|gasping|straining) for (?:breath|air)\b|\bgrunting\W+(?:[\w']+\W+){0,4}?breath/g,
  ),
  rule("breathing", /\bgasping\b|\bcan't (?:catch|get) (?:my|his|her|a|their) breath\b|\bcan't get (?:enough )?air\b/g),
  rule(
    "breathing",
    new RegExp(
      [
        "\\b(?:lips|face|he|she|baby|skin) (?:is |",
        "are |turning |turned |gone |going |look |",
        "looks )+(?:blue|purple|grey|gray)\\b|\\bturning blue\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("breathing", /\b(?:choking|choked on|suffocat\w+)\b/g),
  rule(
    "breathing",
    new RegExp(
      [
        "\\binhaler (?:isn't|is not|not|doesn't|does not|",
        "didn't|won't|is no) (?:working|helping|help|",
        "work|use)\\b|\\bwheez\\w+ (?:really |so |very )?(?:badly|",
        "bad|hard|loudly)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "breathing",
    /\basthma attack\b\W+(?:\w+\W+){0,6}?(?:inhaler|not working|isn't helping|can't|won't stop|worse)/g,
  ),
  // Severe bleeding.
  rule(
    "bleeding",
    /\bbleed(?:ing|s)? (?:a lot|heavily|badly|profusely|everywhere|nonstop|non-stop|so much|really bad|through)\b/g,
  ),
  rule(
    "bleeding",
    new RegExp(
      [
        "\\b(?:won't|will not|doesn't|does not|can't|",
        "isn't|is not|hasn't|not) stop(?:ping)? (?:the )?bleeding\\b|",
        "\\bbleeding\\W+(?:[\\w']+\\W+){0,4}?(?:won't|",
        "will not|doesn't|does not|isn't|is not|hasn't|",
        "has not) (?:stop|stopped|slowing)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "bleeding",
    new RegExp(
      [
        "\\b(?:blood|bleeding) (?:is |keeps )?(?:spurting|",
        "gushing|pouring|squirting|everywhere|pumping)\\b|",
        "\\b(?:lots|so much|a lot|tons|loads|pool) of blood\\b|",
        "\\blosing (?:a lot of |so much |lots of )?blood\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "bleeding",
    new RegExp(
      [
        "\\b(?:vomiting|throwing up|coughing up|puking|",
        "spitting up) blood\\b|\\bsoaked (?:through )?(?:a |",
        "the |my |his |her )?(?:towel|towels|pad|",
        "pads|bandage|shirt)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "bleeding",
    /\bdeep (?:cut|wound|gash|stab)\b|\b(?:stabbed|been stabbed|got stabbed|been shot|got shot|gunshot)\b/g,
  ),
  rule("bleeding", /\bpregnant\W+(?:\w+\W+){0,6}?bleeding\b|\bbleeding\W+(?:\w+\W+){0,6}?pregnant\b/g),
  // Severe allergic reaction.
  rule("anaphylaxis", /\banaphyla\w*\b/g),
  rule(
    "anaphylaxis",
    new RegExp(`\\b(?:throat|airway)\\W+${W}{0,3}?(?:closing|closing up|swelling|swollen|tight|tightening)\\b`, "g"),
  ),
  rule(
    "anaphylaxis",
    new RegExp(
      [
        "\\b(?:tongue|lips?|face|mouth|eyes)(?: and (?:my |",
        "his |her |their )?(?:tongue|lips?|face|mouth|",
        "eyes))? (?:is |are |started |starting |getting |",
        "keeps |has |have |all )*(?:swell\\w*|swollen|",
        "puff\\w*|blown up)\\b",
      ].join(""),
      "g",
    ),
    new RegExp(
      [
        "\\b(?:ate|eaten|eating|sting|stung|bite|bitten|",
        "allerg\\w*|peanuts?|nuts?|shellfish|shrimp|",
        "bee|wasp|hornet|hives|antibiotic|penicillin|",
        "medicine|pill)\\b",
      ].join(""),
    ),
  ),
  rule(
    "anaphylaxis",
    new RegExp(
      [
        "\\b(?:used|using|gave|giving|injected|injecting|",
        "jabbed|had to use|had to give) (?:my|his|",
        "her|their|an|the|him|her) (?:an )?epi-?pen\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("anaphylaxis", /\bhives (?:all over|everywhere)\W+(?:\w+\W+){0,8}?(?:breath|throat|dizzy|faint|swell\w*)/g),
  // Poisoning and overdose.
  rule(
    "poisoning",
    new RegExp(
      [
        "\\b(?:swallowed|drank|drunk|ate|eaten|ingested|",
        "chewed|sucked on|licked|got into) (?:[\\w']+ ){0,4}?(?:bleach|",
        "drain cleaner|antifreeze|rat poison|poison|",
        "detergent|laundry pods?|tide pods?|dishwasher (?:tablets?|",
        "pods?)|button batter\\w+|batter(?:y|ies)|",
        "magnets?|lighter fluid|gasoline|petrol|paint thinner|",
        "pesticide|weed ?killer|insecticide|bug spray|",
        "lamp oil|rubbing alcohol|mushrooms? from the (?:yard|",
        "garden|woods))\\b",
      ].join(""),
      "g",
    ),
  ),
  rule(
    "poisoning",
    new RegExp(
      `\\b(?:took|taken|swallowed|ate|had|downed|popped) (?:like ` +
        `|about |around |maybe |over |almost |nearly )?${MANY} ` +
        `?${W}{0,3}?${MEDS}\\b`,
      "g",
    ),
  ),
  rule(
    "poisoning",
    new RegExp(
      `\\b(?:${CHILD}|i|we) (?:ate|swallowed|got ` +
        `into|took|chewed) (?:some of |a few of |one of ` +
        `)?(?:my|his|her|the|our|their|[\\w]+'s) (?:[\\w-]+ ` +
        `){0,3}?${MEDS}\\b`,
      "g",
    ),
  ),
  rule("poisoning", /\b(?:overdosed|overdosing|took an overdose|on an overdose|overdose on|overdose of)\b/g),
  rule("poisoning", /\b(?:poisoned|poison control)\b/g),
  rule(
    "poisoning",
    new RegExp(
      [
        "\\b(?:carbon monoxide|co) (?:alarm|detector) (?:is |",
        "keeps |went |going )*(?:off|beeping|going off)\\b|",
        "\\bcarbon monoxide\\b\\W+(?:\\w+\\W+){0,8}?(?:dizzy|",
        "headache|sick|passed out|confused|leak)",
      ].join(""),
      "g",
    ),
  ),
  // Collapse, unresponsiveness, seizures.
  rule(
    "collapse",
    /\b(?:unconscious|unresponsive)\b/g,
    new RegExp(
      [
        "\\b(?:he|she|they|him|her|i|my|baby|child|",
        "son|daughter|husband|wife|mom|mum|dad|friend|",
        "someone|somebody|person|man|woman|grandma|",
        "grandpa|father|mother|toddler|kid|patient)\\b",
      ].join(""),
    ),
  ),
  rule(
    "collapse",
    new RegExp(
      [
        "\\b(?:passed out|fainted|collapsed|fell|blacked out)\\b\\W+(?:\\w+\\W+){0,6}?(?:won't",
        "|isn't|not|can't|hasn't|doesn't) (?:wake|",
        "waking|respond|responding|come to|coming to|",
        // Collapsed and not breathing is a cardiac arrest: the collapse card (CPR), not the breathing one.
        "moving|move|breathing|breathe)\\b",
      ].join(""),
      "g",
    ),
  ),
  rule("collapse", /\b(?:won't|will not|can't|cannot|isn't) (?:wake|waking) (?:him|her|them|up)\b/g),
  rule(
    "collapse",
    new RegExp(
      `\\b${NOW} (?:a )?(?:seizure|fit|convulsion)s?\\b|\\b(?:seiz` +
        `ure|fit|convulsions?|shaking) (?:that )?(?:won't stop|isn't ` +
        `stopping|for (?:\\d+|five|ten|over \\w+) minutes)\\b`,
      "g",
    ),
  ),
];

/**
 * Phrases that look like an emergency word and are not: removed before the rules read the text.
 * "chest of drawers", "stroke of luck", "this heat is killing me", "bleeding-edge".
 */
export const EN_LOOKALIKES: RegExp[] = [
  // Drowning in something: "choking on all the advice online".
  new RegExp(
    "\\bchoking on (?:all )?(?:the |this |that )?(?:\\w+ )?" +
      "(?:advice|information|info|paperwork|work|emails?|options|choices|data)\\b",
    "g",
  ),
  new RegExp(
    [
      "\\b(?:chest (?:of drawers|freezer|press|day|",
      "workout|exercises?|fly|flies|hair|x-?ray|",
      "infection|cold|congestion)|(?:treasure|war|",
      "toy|ice|medicine|hope|tool) chest)\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:stroke of (?:luck|genius|midnight|the pen)|",
      "(?:brush|swimming|swim|breast|back|pen|key|",
      "golf|tennis) ?strokes?|strok(?:e|ed|ing) (?:the|",
      "my|his|her|its) (?:cat|dog|hair|beard|back|",
      "fur|ego))\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:(?:is|are|was|were|it's|that's|this is) killing (?:me|",
      "us|him|her)|killing it|kill(?:ing)? (?:time|",
      "the (?:process|app|lights?|engine|bacteria|",
      "germs|weeds|mood|vibe|battery))|kills? (?:bacteria|",
      "germs|weeds|lice|fleas|mold|mould)|my (?:mom|",
      "mum|dad|boss|wife|husband|teacher|coach) (?:will|",
      "is going to|'ll|would) kill me)\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:dying (?:to|for)|(?:die|died|dying|",
      "dead) (?:of|from|laughing) (?:laughter|embarrassment|",
      "boredom|cuteness|laughing)|to die for|killing myself laughing|",
      "laughed myself)\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:bleeding[- ](?:edge|heart)|breath ?taking|",
      "breath of fresh air|take (?:my|your|his|",
      "her) breath away|took my breath away|bad breath|",
      "hold (?:my|your) breath|breathing (?:exercises?|",
      "techniques?|space|room))\\b",
    ].join(""),
    "g",
  ),
  /\b(?:poison (?:ivy|oak|sumac)|food poisoning|(?:sun|heat) rash)\b/g,
  new RegExp(
    [
      "\\b(?:suicide (?:squad|doors?|mission|run|",
      "bunny|rates?|statistics|prevention (?:day|",
      "week|month|training|course))|overdose (?:on|",
      "of) (?:sugar|chocolate|netflix|tv|memes|",
      "cuteness|coffee|caffeine|candy|love))\\b",
    ].join(""),
    "g",
  ),
  /\b(?:accidentally|by accident) (?:cut|burn(?:ed|t)|hurt) (?:myself|himself|herself)\b/g,
  new RegExp(
    [
      "\\b(?:cut (?:myself|himself|herself) (?:shaving|",
      "cooking|chopping|while|on (?:a|the|some)|",
      "by accident|accidentally|slicing|with a (?:knife|",
      "razor) while)|burn(?:ed|t) (?:myself|himself|",
      "herself) (?:cooking|on (?:the|a)|with (?:the|",
      "a)|ironing|while)|hurt (?:myself|himself|",
      "herself) (?:playing|lifting|at the gym|running|",
      "skiing|falling|when|while|at work|exercising))\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:breathe? through (?:my|his|her|the|",
      "their) nose|short(?:ness)? of breath (?:when|",
      "after|while|during|climbing|going up|on (?:the )?stairs|",
      "walking|running|jogging|exercising|working out|",
      "at the gym)(?: \\w+)?)\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:(?:app|page|site|screen|computer|laptop|",
      "phone|website|browser|program|widget|system|",
      "server|button|tab|game|printer) (?:is |was |",
      "keeps |became |went |goes |getting )*(?:unresponsive|",
      "not responding))\\b",
    ].join(""),
    "g",
  ),
  new RegExp(
    [
      "\\b(?:can't wake up (?:in the morning|early|",
      "on time|for (?:work|school|class))|choked up|",
      "choking hazard|choke chain|gums? (?:are |",
      "keep )?bleed\\w*|bleeding gums?)\\b",
    ].join(""),
    "g",
  ),
  // An alarm chirping for its battery is not carbon monoxide.
  new RegExp(
    "\\b(?:co|carbon monoxide|smoke) alarm (?:keeps |is |was )?(?:beeping|chirping)[^.]{0,25}(?:low battery|" +
      "batter(?:y|ies) (?:is |are )?(?:low|dying|flat))\\b",
    "g",
  ),
  // Scars are what self-harm left: asking to treat them is history, not a crisis.
  /\b(?:self[- ]?harm(?:ing)?|cutting) ?(?:scars?|疤痕?|伤疤)|\bscars? (?:from|of) (?:self[- ]?harm(?:ing)?|cutting)\b/g,
  // A rash that fades under a pressed glass is the reassuring result of the glass test (NICE NG240).
  new RegExp(
    [
      "\\b(?:(?:glass|tumbler) test,? (?:and )?(?:it |they |the \\w+ )?(?:fades?|faded|went away|disappear\\w*|",
      "blanch\\w*)|(?<!(?:n't|not|never|no longer) )(?:fades?|faded|goes (?:away|white|pale)|went (?:away|white|pale)|",
      "disappears?|disappeared|",
      "blanch(?:es|ed)?) (?:when|if|under|with) (?:i |you |we )?(?:press\\w*|push\\w*|(?:the|a) (?:glass|tumbler)))\\b",
    ].join(""),
    "g",
  ),
];
