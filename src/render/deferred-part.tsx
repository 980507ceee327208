import { type ComponentType, memo, type ReactNode, Suspense, use } from 'react';

/** Where a deferred part's code arrives, and what its boundary waits for meanwhile. */
interface Slot<P> {
  Loaded: ComponentType<P> | undefined;
  ready: Promise<void>;
}

/**
 * A part of an island whose code loads only when the visitor reaches for it (decision 160): the
 * server renders it in full, and in the browser it sits in a Suspense boundary of its own that
 * keeps the server's markup, not yet hydrated, until `load()` has brought the code. Then React
 * hydrates it in place. The island around it hydrates without that code.
 *
 * Until the code is here the boundary takes no new props: React gives up the server's markup of
 * a boundary that gets new props before it can hydrate, and would show nothing there. So the
 * part must look the same until it is used (a closed menu, an empty search box), and the island
 * must `load()` before it changes what the part shows (opens the menu).
 *
 * The server must have the code before it renders: its island registry calls `load()` first (a
 * part rendered on the server without its code throws). A part that never changes need never be
 * loaded in the browser at all: it stays the server's markup.
 */
export function deferredPart<P extends object>(
  importPart: () => Promise<ComponentType<P>>,
): { Part: (props: P) => ReactNode; load: () => Promise<void> } {
  let loaded = () => {};
  const slot: Slot<P> = {
    Loaded: undefined,
    ready: new Promise<void>((resolve) => {
      loaded = resolve;
    }),
  };
  let loading: Promise<void> | undefined;
  const load = () => {
    loading ??= importPart().then((component) => {
      slot.Loaded = component;
      loaded();
    });
    return loading;
  };
  return {
    // biome-ignore lint/correctness/noComponentHookFactories: made once per part, at module load
    Part: (props: P) => {
      // On the server a part without its code would render as nothing: fail instead, outside
      // the part's own boundary.
      if (!slot.Loaded && typeof window === 'undefined')
        throw new Error('a deferred part rendered on the server before its code was loaded');
      return <DeferredPart slot={slot as Slot<object>} props={props} />;
    },
    load,
  };
}

const DeferredPart = memo(
  function DeferredPart(props: { slot: Slot<object>; props: object }) {
    return (
      <Suspense fallback={null}>
        <LoadedPart slot={props.slot} props={props.props} />
      </Suspense>
    );
  },
  (before, after) =>
    before.slot === after.slot &&
    (!after.slot.Loaded ||
      Object.keys(after.props).every(
        (key) =>
          (before.props as Record<string, unknown>)[key] ===
          (after.props as Record<string, unknown>)[key],
      )),
);

function LoadedPart(props: { slot: Slot<object>; props: object }) {
  const { Loaded } = props.slot;
  if (!Loaded) use(props.slot.ready);
  return Loaded ? <Loaded {...props.props} /> : null;
}
