import type { PageProps } from "../pages.ts";
import { ConversationDetail } from "../conversations/detail.tsx";
import { ConversationList } from "../conversations/list.tsx";

/** /console/conversations: the list; /console/conversations/<id>: one conversation. */
export default function Conversations({ rest }: PageProps) {
  return rest[0] ? <ConversationDetail key={rest[0]} id={decodeURIComponent(rest[0])} /> : <ConversationList />;
}
