export default function ComparisonSection() {
  return <section aria-label="ComparisonSection" />;
}
