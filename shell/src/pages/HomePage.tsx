import { RemoteSlot } from '../remotes/RemoteSlot.tsx';

/**
 * `/` (decisions.md): landing hero, the yield comparison, then the landing's features,
 * how-it-works, audit, FAQ and closing call to action. Each part is contained on its own.
 */
export function HomePage() {
  return (
    <>
      <RemoteSlot remote="mfe_content" module="LandingHero" minHeight="90vh" />
      <RemoteSlot remote="mfe_leaderboard" module="ComparisonSection" minHeight="100vh" />
      <RemoteSlot remote="mfe_content" module="LandingSections" minHeight="100vh" />
    </>
  );
}
