import { HOME_PATH, pageRouteData } from '@yield/federation/routes';
import { RemoteSlot } from '../remotes/RemoteSlot.tsx';

const homeModules = pageRouteData.find((route) => route.path === HOME_PATH)!.modules;
/** Space each part reserves while it loads, so the page does not jump. */
const MIN_HEIGHTS = ['90vh', '100vh', '100vh'];

/**
 * `/`: landing hero, the yield comparison, then the landing's features,
 * how-it-works, audit, FAQ and closing call to action. Each part is contained on its own.
 */
export function HomePage() {
  // The parts are sections; the page's one <main> landmark is the shell's.
  return (
    <main className="home">
      {homeModules.map((ref, index) => (
        <RemoteSlot key={`${ref.remote}/${ref.module}`} {...ref} minHeight={MIN_HEIGHTS[index]} />
      ))}
    </main>
  );
}
