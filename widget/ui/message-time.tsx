import { formatTime, type WidgetLocale } from "../i18n/index.ts";

/** A message's time of day (Intl, the visitor's locale); the full date and time on hover. */
export function MessageTime({ at, locale }: { at: number; locale: string }) {
  return (
    <time class="time" dateTime={new Date(at).toISOString()} title={new Date(at).toLocaleString(locale)}>
      {formatTime(locale as WidgetLocale, at)}
    </time>
  );
}
