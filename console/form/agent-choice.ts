import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";

/** The site's agent ids and the one a page shows (the first until the owner picks another). */
export function useAgentChoice() {
  const agents = useSignal<string[]>([]);
  const agent = useSignal("");
  useEffect(() => {
    // Unreadable agents (the session ended, the network) leave the choice empty: the page says nothing
    // of an agent it cannot name, and an ended session shows the sign-in form instead.
    api.get(ROUTES.adminAgents).then(
      (a) => {
        agents.value = a.agents.map((x) => x.id);
        agent.value = agents.value[0] ?? "";
      },
      () => (agents.value = []),
    );
  }, []);
  return { agents, agent };
}
