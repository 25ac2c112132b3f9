import type { WidgetLocale } from "../i18n/index.ts";

/** The slots card's strings, in each locale: they ship in the card's chunk, never in the core. */
const en = {
  pickTime: "Pick a time (your time zone: {tz})",
  moreTimes: "More times",
  noTimes: "No free times in the coming days.",
  slotTaken: "That time was just taken. Here are the free times now.",
  confirmTitle: "Book this visit?",
  minutes: "{n} min",
  name: "Name",
  contact: "E-mail",
  reason: "Reason for the visit",
  confirm: "Confirm booking",
  changeTime: "Change time",
  booking: "Booking…",
  booked: "Booked",
  bookedFor: "Your visit is booked for {when}.",
  cancelVisit: "Cancel this visit",
  cancelled: "This visit is cancelled.",
  failed: "The booking could not be made just now. Your details are kept: try again in a moment.",
  invalid: "Please check your name and e-mail address.",
  past: "That time has passed. Please pick another.",
};

const zhCN: typeof en = {
  pickTime: "选择时间（您的时区：{tz}）",
  moreTimes: "更多时间",
  noTimes: "近几天没有空闲时间。",
  slotTaken: "该时间刚刚被预约。以下是目前的空闲时间。",
  confirmTitle: "确认预约此次就诊？",
  minutes: "{n} 分钟",
  name: "姓名",
  contact: "电子邮箱",
  reason: "就诊原因",
  confirm: "确认预约",
  changeTime: "更改时间",
  booking: "正在预约…",
  booked: "已预约",
  bookedFor: "您的就诊已预约在 {when}。",
  cancelVisit: "取消此次就诊",
  cancelled: "此次就诊已取消。",
  failed: "暂时无法完成预约。您填写的信息已保留，请稍后重试。",
  invalid: "请检查您的姓名和电子邮箱。",
  past: "该时间已过，请选择其他时间。",
};

export type BookingStrings = typeof en;

export const bookingStrings = (locale: WidgetLocale): BookingStrings => (locale === "zh-CN" ? zhCN : en);
