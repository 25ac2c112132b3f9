import type { ChatStore } from "../state/chat-store.ts";
import { BookingCard } from "./booking-card.tsx";
import { LeadCard } from "./lead-card.tsx";

/** The cards under the conversation: booking's slots card and the lead card the agent raised, when there are. */
export function ChatCards({ store }: { store: ChatStore }) {
  const { bookings, leads } = store.state.value;
  return (
    <>
      {!!bookings?.length && <BookingCard store={store} />}
      {!!leads?.length && <LeadCard store={store} />}
    </>
  );
}
