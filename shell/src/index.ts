// Async boundary: shared singletons (react, router, jotai...) are negotiated before bootstrap runs.
import { fetchPageLists } from './remotes/pages.ts';

// A page sent painted by the server loads this entry only once its paint is on screen, after
// preloading the page's scripts and reads (AFTER_PAINT_SCRIPT in @yield/platform/first-paint):
// start at once. Start reading the route table (remotes manifest, then every remote's
// pages.json) in parallel with the shared libraries; the app renders once both are there.
void fetchPageLists();
// In a task of its own: the federation runtime has just set itself up in this one, and asking for
// the bootstrap resolves every shared library it needs and adds their scripts. Together they were
// the longest task of a strategy page's start on a phone (docs/performance.md, "The shell's
// start, task by task").
setTimeout(() => void import(/* webpackChunkName: "bootstrap" */ './bootstrap.tsx'), 0);
