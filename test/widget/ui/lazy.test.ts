import { beforeEach, describe, expect, it, vi } from "vitest";

/**
 * A lazy component's first render shows the fallback; it must show the real component once its chunk
 * has arrived, also when the chunk arrives after that render but before the render's effects run (a
 * restored conversation drawn while the chunk the panel preloaded is on its way). Preact's hooks are
 * stood in for, so the test decides that order.
 */
const effects: Array<() => void> = [];
let rerenders = 0;
vi.mock("preact/hooks", () => ({
  useState: (initial: unknown) => [initial, () => void rerenders++],
  useEffect: (effect: () => void) => void effects.push(effect),
}));

const { lazyComponent } = await import("../../../widget/ui/lazy.tsx");

const Fallback = () => null;
const Real = () => null;

beforeEach(() => {
  effects.length = 0;
  rerenders = 0;
});

describe("lazyComponent", () => {
  it("draws the component when its chunk arrives between the fallback's render and its effects", async () => {
    let arrive!: () => void;
    const chunk = new Promise<void>((r) => (arrive = r));
    const Lazy = lazyComponent(() => chunk.then(() => Real), Fallback);
    const loading = Lazy.preload();
    expect((Lazy({}) as { type: unknown }).type).toBe(Fallback);
    arrive();
    await loading;
    for (const effect of effects.splice(0)) effect();
    await new Promise((r) => setTimeout(r));
    expect(rerenders).toBe(1);
    expect((Lazy({}) as { type: unknown }).type).toBe(Real);
  });

  it("draws the component once its chunk arrives after the effects ran", async () => {
    let arrive!: () => void;
    const chunk = new Promise<void>((r) => (arrive = r));
    const Lazy = lazyComponent(() => chunk.then(() => Real), Fallback);
    expect((Lazy({}) as { type: unknown }).type).toBe(Fallback);
    for (const effect of effects.splice(0)) effect();
    expect(rerenders).toBe(0);
    arrive();
    await new Promise((r) => setTimeout(r));
    expect(rerenders).toBe(1);
    expect((Lazy({}) as { type: unknown }).type).toBe(Real);
  });

  it("asks for nothing again when the component was already there at its first render", async () => {
    const Lazy = lazyComponent(async () => Real, Fallback);
    await Lazy.preload();
    expect((Lazy({}) as { type: unknown }).type).toBe(Real);
    for (const effect of effects.splice(0)) effect();
    await new Promise((r) => setTimeout(r));
    expect(rerenders).toBe(0);
  });
});
