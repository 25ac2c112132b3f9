import { useEffect, useMemo } from "preact/hooks";
import type { PageProps } from "../pages.ts";
import { LiveConversationPage } from "../live/conversation.tsx";
import { LiveOverviewPage } from "../live/overview.tsx";
import { stayPresent } from "../live/presence.ts";

/**
 * /console/live: the queue and live conversations; /console/live/<id>: one conversation, to watch,
 * join, write and hand back (takeover). The staff member is present while either is open.
 */
export default function Live({ rest }: PageProps) {
  const presence = useMemo(() => stayPresent(), []);
  useEffect(() => () => presence.stop(), [presence]);
  return rest[0] ? (
    <LiveConversationPage key={rest[0]} id={decodeURIComponent(rest[0])} />
  ) : (
    <LiveOverviewPage present={presence.first} />
  );
}
