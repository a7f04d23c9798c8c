export default function LandingHero() {
  return <section aria-label="LandingHero" />;
}
