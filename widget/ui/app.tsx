import { useState } from "preact/hooks";
import type { ChatStore } from "../state/chat-store.ts";
import { AdviceList } from "./advice-list.tsx";
import { Composer } from "./composer.tsx";
import { Header } from "./header.tsx";
import { ChatIcon, CloseIcon } from "./icons.tsx";
import { MessageList } from "./message-list.tsx";

function Panel({ store }: { store: ChatStore }) {
  const [view, setView] = useState<"chat" | "advice">("chat");
  return (
    <div
      class="panel"
      role="dialog"
      aria-labelledby="parley-title"
      onKeyDown={(e) => {
        if (e.key === "Escape") store.close();
      }}
    >
      <Header store={store} view={view} onView={setView} />
      {view === "advice" ? <AdviceList store={store} /> : <MessageList store={store} />}
      <Composer store={store} />
      <div class="foot">{store.strings.poweredBy}</div>
    </div>
  );
}

export function App({ store, launcher }: { store: ChatStore; launcher: boolean }) {
  const open = store.isOpen.value;
  const s = store.strings;
  return (
    <div class="root" lang={store.locale}>
      {open && <Panel store={store} />}
      {launcher && (
        <button
          type="button"
          class="launcher"
          aria-label={open ? s.launcherClose : s.launcherOpen}
          title={open ? s.launcherClose : s.launcherOpen}
          aria-expanded={open}
          onClick={() => (open ? store.close() : store.open())}
        >
          {open ? <CloseIcon /> : <ChatIcon />}
        </button>
      )}
      <div class="sr" aria-live="polite" aria-atomic="true">
        {store.announcement.value}
      </div>
    </div>
  );
}
