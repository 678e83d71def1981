// React runtime for the islands. entry.ts imports this lazily, so pages without any
// [data-island] element download only the tiny entry script. React itself ends up in a
// shared chunk that this module and the island modules import.
export { createElement } from "react";
export { createRoot } from "react-dom/client";
