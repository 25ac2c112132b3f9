/**
 * Tool names, for code that must not load the tools' schemas. A file of their own, apart from the
 * protocol's other names (protocol.ts): only the widget's tool runtime needs them, so the widget's
 * core, which ships before the first reply, does not carry them.
 */
export const TOOL_NAMES = {
  recordAdvice: "record_advice",
  askFollowup: "ask_followup",
  sampleSize: "sample_size",
  recordStageData: "record_stage_data",
  knowledgeSearch: "knowledge_search",
  webSearch: "web_search",
  classifyIntent: "classify_intent",
  ruleVerdict: "rule_verdict",
  suggestStrategyUpdate: "suggest_strategy_update",
  askForPerson: "ask_for_person",
  findSlots: "find_slots",
  bookSlot: "book_slot",
  cancelBooking: "cancel_booking",
  offerLeadCard: "offer_lead_card",
} as const;
