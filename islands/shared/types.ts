// Types only: nothing here ends up in the bundle.

/**
 * What entry.ts passes to every island besides the JSON of its `data-props`.
 * (A data-props key with one of these names is overwritten.)
 */
export interface IslandContext {
  /**
   * The mount element's innerHTML exactly as the server rendered it, read before React
   * took over (and before any island nested inside it was mounted).
   */
  serverHtml: string;
  /**
   * The mount element itself (the createRoot container). React renders its children; the
   * island may set attributes and classes on the element itself (state for CSS and tests,
   * ARIA) and must remove them again in its effect cleanup.
   */
  mountEl: HTMLElement;
}
