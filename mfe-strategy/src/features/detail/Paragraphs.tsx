/** Content paragraphs from the API, one <p> each. */
export function Paragraphs({ items }: { items: readonly string[] }) {
  return (
    <>
      {items.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
    </>
  );
}
