import { describe, expect, it } from "vitest";
import { TextIndex, tokens } from "../../worker/tools/text-index.ts";

describe("text index", () => {
  it("splits Chinese into bigrams and English into words without stop words", () => {
    expect(tokens("喝水多少")).toEqual(["喝水", "水多", "多少"]);
    expect(tokens("How much water do adults need?")).toEqual(["much", "water", "adult", "need"]);
  });

  it("ranks the passage that shares the rarer words first", () => {
    const index = new TextIndex([
      { id: "a", title: "Water", text: "drink water daily" },
      { id: "b", title: "Sunscreen", text: "apply sunscreen daily before going out" },
      { id: "c", title: "湿疹护理", text: "保湿霜每天两次" },
    ]);
    expect(index.search("sunscreen daily")[0].id).toBe("b");
    expect(index.search("湿疹怎么护理")[0].id).toBe("c");
    expect(index.search("nothing matches here")).toEqual([]);
  });
});
