// React runtime for the islands. entry.ts imports this lazily, so pages without any
// [data-island] element download only the tiny entry script. React itself ends up in a
// shared chunk that this module and the island modules import.
export { createElement, useEffect } from "react";
export { createRoot } from "react-dom/client";
// Not used through this module: importing the JSX runtime here too puts it in that same
// shared React chunk. Otherwise esbuild gives it a chunk of its own (imported by the islands
// only), one more request and ~0.3 KB gzip more on every island page.
export { jsx } from "react/jsx-runtime";
