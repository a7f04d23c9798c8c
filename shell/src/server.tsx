/**
 * The shell's server renderer (built to dist/server/render.cjs): the page frame (header, footer,
 * every slot of the page) at a path, with the given modules' server markup in their slots and a
 * spinner in the others, exactly as the browser's first render of the same page. The site server
 * matches the path against the run-time route table and passes the page it found (null: the not-found page).
 */
import { Route, Routes } from 'react-router-dom';
import type { RenderFrame } from '@yield/platform';
import { renderFirstPaint } from '@yield/platform/server';
import { Layout } from './layout/Layout.tsx';
import { renderPage } from './app/route-table.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { FirstPaintBox, FirstPaintSource } from './remotes/RemoteSlot.tsx';
import { HydratedSlots, HydrationBox, spliceSlots } from './remotes/hydration.tsx';

export const renderFrame: RenderFrame = (context, modules, page, hydrate = []) => {
  const inPlace = hydrate.filter((key) => modules[key] !== undefined);
  const routes = (
    <Routes>
      <Route element={<Layout />}>
        <Route path="*" element={page ? renderPage(page) : <NotFoundPage />} />
      </Route>
    </Routes>
  );
  const html = renderFirstPaint(
    <FirstPaintSource.Provider value={(key) => modules[key]}>
      <HydratedSlots.Provider value={(key) => inPlace.includes(key)}>
        {inPlace.length > 0 ? (
          // The browser hydrates the page (the same box, its module's markup in its slot).
          <HydrationBox slot={inPlace[0]!}>{routes}</HydrationBox>
        ) : (
          // The app's first render replaces all of it.
          <FirstPaintBox>{routes}</FirstPaintBox>
        )}
      </HydratedSlots.Provider>
    </FirstPaintSource.Provider>,
    context,
  );
  return spliceSlots(html, modules, inPlace);
};
