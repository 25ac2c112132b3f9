import { describe, expect, it } from "vitest";
import { checkEmergency } from "../../../worker/guard/emergency-guard.ts";

/**
 * Red flags the clinical model reads as concepts, each written here in words of our own: a sign (a
 * swollen calf, crackling under the skin), a modifier (came on suddenly, a figure over 38) or a
 * context (chemotherapy, a tampon, a skin treatment a toddler can reach), in combination.
 */
const situation = (text: string) => {
  const v = checkEmergency(text);
  return v.emergency ? v.situation : null;
};

describe("red flags by concept", () => {
  it.each([
    // Circulation: a clot in the lung, a limb's artery blocked, a tearing chest, a bleed that will not stop.
    ["back from a long-haul flight, my calf is swollen and it hurts when I breathe in", "circulation"],
    ["my dad's leg went cold and white an hour ago and he says his toes are numb", "circulation"],
    ["我老公胸口一直到后背像撕裂一样痛,出了一身冷汗", "circulation"],
    ["阿爸流鼻血流咗半個鐘都止唔到", "circulation"],
    // Airway: a dental infection spreading into the neck.
    ["tooth abscess, the swelling is spreading into his neck and he can hardly swallow", "airway"],
    // Children: testicular torsion, an infant's apnoea with a colour change.
    ["my 14 year old woke up with sudden agony in his testicle and he's been sick", "child"],
    ["our baby keeps pausing, she stops breathing and goes grey for a few seconds", "child"],
    // Drug reactions: serotonin toxicity, widespread blisters, hair dye with swelling and wheeze.
    [
      "started tramadol on top of my sertraline, now my muscles keep jerking, temp 38.9 and my heart is pounding",
      "drug_reaction",
    ],
    ["since starting lamotrigine I've got blisters all over my chest and back", "drug_reaction"],
    ["dyed my hair an hour ago and now my eyelids are swollen shut and I'm wheezing", "drug_reaction"],
    // Neurological: cauda equina, a posterior stroke without a drooping face.
    ["slipped disc flared up, now I'm numb between my legs and I can't pee", "neuro"],
    ["grandad is seeing double and the room is spinning, he can't walk straight", "neuro"],
    // Sepsis: crepitus, neutropenic fever, toxic shock, fever with confusion, early meningococcal signs.
    ["the swollen area on my thigh crackles under the skin when I press it and I have a fever", "sepsis"],
    ["I'm on chemo and my temperature is 38.3 tonight", "sepsis"],
    ["I forgot a tampon for three days, now I have a high fever and a rash like sunburn", "sepsis"],
    ["grandma has a fever and is talking nonsense", "sepsis"],
    ["my daughter has a fever, her hands and feet are ice cold and there's a rash on her legs", "sepsis"],
    // Poisoning: an unwitnessed ingestion, skin treatments, a weekly medicine daily, a staggered overdose, CO.
    ["my toddler had my blood pressure tablets open on the floor and some tablets are missing", "poisoning"],
    ["my 2 year old drank some of my minoxidil", "poisoning"],
    ["儿子喝了几口治疣的药水", "poisoning"],
    ["妈妈把一周一次的甲氨蝶呤当成每天吃,现在嘴巴溃疡,拉肚子", "poisoning"],
    ["一天吃了差不多30片对乙酰氨基酚", "poisoning"],
    ["we all get headaches at home that go away when we're out", "poisoning"],
    // Obstetric: waters breaking before 37 weeks, a quiet baby.
    ["31 weeks pregnant and fluid is gushing out", "obstetric"],
    ["孕34周,宝宝今天基本没怎么动", "obstetric"],
    // Self-harm said by arrangements and a last message.
    ["please cancel my appointments, I won't be around after Friday. my dog is going to my brother", "self_harm"],
    ["这是我最后一条消息了,谢谢你们", "self_harm"],
    // Heat: a hot dry body that stopped sweating; a negation belongs to its own phrase ("not making sense").
    ["it's been 40 all week, grandpa's hot to the touch, not sweating and muddled", "heat_gas"],
    ["after a day roofing in the heat he's not making sense and hot as an oven", "heat_gas"],
    // Burns: a contact burn an older person could not move away from; a scald the size of a hand.
    ["my grandad leaned on the radiator for ages and the skin on his back is white and leathery", "burns"],
    ["my baby got scalded by tea on her arm, blisters the size of my hand", "burns"],
    // Self-harm: trapped with a means at hand, a method asked, a goodbye then silence.
    ["I just want the pain to stop forever, I've got my dad's gun", "self_harm"],
    ["what's the quickest painless way to die", "self_harm"],
    ["my brother texted me 'I love you, I'm sorry, take care of mum' and now his phone is off", "self_harm"],
    ["我活着就是个负担,药我已经准备好了", "self_harm"],
    // Obstetric: sepsis after a birth, a fall in pregnancy, vomiting that keeps nothing down.
    ["gave birth last week, now fever, smelly discharge and my heart's racing", "obstetric"],
    ["孕32周摔了一跤,肚子一直痛,还有点出血", "obstetric"],
    ["怀孕两个月,吐得什么都吃不下,喝水也吐,一天没小便了", "obstetric"],
    // Sepsis: an infection with two high-risk signs and no fever; a rash that does not fade under a glass.
    ["老人肺炎,现在叫不太醒,呼吸很急", "sepsis"],
    ["baby has a temperature of 39 and a rash that doesn't fade with a glass", "sepsis"],
    // Poisoning: a hydrocarbon a toddler can breathe in; heat: new confusion in a heatwave.
    ["toddler drank some white spirit from a jar in the garage and is coughing", "poisoning"],
    ["my elderly neighbour hasn't left her flat in the heatwave, she's confused and not drinking", "heat_gas"],
    // Cantonese and regional words, misspellings: a child's "抽筋" is a fit, "wee one" a child.
    ["個仔食咗我啲降血壓藥,而家好眼瞓", "poisoning"],
    ["宝宝才一个多月,摸着好烫,量了38.5", "child"],
    ["寶寶一直抽筋,已經超過五分鐘了", "neuro"],
    ["my wee one has a temprature of 39 and a rash that wont fade under a glass", "sepsis"],
    // Pinyin typed without tones, as a visitor without a Chinese keyboard writes.
    ["laogong xiongkou hen tong, chu le hen duo han", "circulation"],
    ["haizi chi le dianchi", "poisoning"],
    // A film, an exam or the news as the setting, not the subject: what happens now to the visitor counts.
    ["I failed all my exams and I don't want to live anymore", "self_harm"],
    ["my son was watching a movie and suddenly his face drooped and he can't talk", "neuro"],
    ["I was playing video games and my chest is crushing and my left arm hurts", "circulation"],
    ["我女儿在看电视剧,突然抽搐了十分钟", "neuro"],
    // Words a story or research also uses, in their clinical sense: a series of fits, a clinical trial.
    ["my son has had a series of seizures and isn't waking up between them", "neuro"],
    ["my husband is in a clinical trial for a new drug and his skin is blistering with mouth sores", "drug_reaction"],
    ["she fell from a second storey window, two stories down, and isn't moving", "neuro"],
    ["my friend posted a story on instagram saying goodbye and now she's not answering", "self_harm"],
  ])("%j is %s", (text, expected) => {
    expect(situation(text)).toBe(expected);
  });

  it.each([
    // History and treatment questions: scars, a blanching rash, a denied blood thinner, a cream not working.
    "I want to ask about laser for my old self harm scars",
    "宝宝身上有小红点,用玻璃杯压一下会褪色,不发烧",
    "hit my head on the shelf, not on any blood thinners, just a small bump",
    "my acne isn't responding to the antibiotics, what next?",
    // Hypotheticals and games; signs denied in the same clause.
    "如果家里有人中风了,应该怎么做?想提前了解",
    "for my tabletop game, what does an acid burn with black skin look like",
    "刚吃了一种新的抗生素,嘴唇和眼睛都不肿,也没起水泡,只是手上有几个疹子",
    // Ordinary reasons for the same signs: a move, a figure under 38, a twitching eyelid, Raynaud's.
    "please cancel my appointments, I'm moving abroad and my dog is going to my sister",
    "my 5 week old has a slight fever, 37.6",
    "I'm taking sertraline and my eyelid twitches",
    "my feet go white and numb in the cold",
    "my calf is sore after the long flight",
    "I had chemo years ago and now I have a fever from a cold",
    "孕28周,今天有点宫缩,正常吗",
    "孕20周,走路不小心摔了一下,没有痛也没出血,宝宝动得很好",
    "what's the best way to die my hair without irritating my scalp?",
    "goodbye for now, see you at my appointment on the bridge road clinic",
    "our CO alarm keeps beeping because the battery is low",
    "我小腿一直抽筋,超过五分钟了,缺钙吗",
    "最后一次跟你们确认一下预约时间",
    "my mama and baba are visiting, can they book together?",
    "I'm writing a novel where the heroine takes all her pills, how long would it take?",
    "just watched a documentary about sepsis, what are the signs?",
    "电视剧里女主突然晕倒了,现实中会这样吗",
    "he had a seizure this morning but he's fine now, should he see a doctor?",
    "my chest hurt a lot last week, I'm fine now, can I still have my peel?",
    "I'm currently studying for my nursing exam: what are the signs of anaphylaxis?",
    "my friend is writing a thriller where someone is poisoned with antifreeze, what symptoms would they have now?",
    "this morning the news said a boy died of sepsis from a cut, what are the signs?",
  ])("%j stays quiet", (text) => {
    expect(situation(text)).toBe(null);
  });
});
