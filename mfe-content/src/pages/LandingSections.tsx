export default function LandingSections() {
  return <section aria-label="LandingSections" />;
}
