/**
 * The text of a data file: JSON indented by two spaces, with a final newline (what operators
 * read and edit). `jsonFileTextInSlices` produces the same bytes for big files without holding
 * the event loop: the elements of top-level arrays are serialised a slice at a time, with a turn
 * of the event loop between slices, so requests keep being answered while 100,000 addresses are
 * written out.
 */
import { createHash } from 'node:crypto';

export function jsonFileText(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

const SLICE = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Same bytes as jsonFileText(data) for a plain object, and their sha256 (hex). */
export async function jsonFileTextInSlices(
  data: Record<string, unknown>,
): Promise<{ text: Buffer; sha256: string }> {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  const emit = (s: string) => {
    const b = Buffer.from(s);
    chunks.push(b);
    hash.update(b);
  };
  // JSON.stringify leaves out properties whose value is undefined.
  const keys = Object.keys(data).filter((k) => data[k] !== undefined);
  if (keys.length === 0) emit('{}\n');
  else {
    emit('{\n');
    for (const [i, key] of keys.entries()) {
      const value = data[key];
      let text = `  ${JSON.stringify(key)}: `;
      if (Array.isArray(value) && value.length > 0) {
        text += '[\n';
        for (let j = 0; j < value.length; j += SLICE) {
          // One stringify per slice: "[\n  item,\n  item\n]" without its brackets, indented
          // two more spaces (array holes and undefined become null, as in JSON.stringify).
          const slice = JSON.stringify(value.slice(j, j + SLICE), null, 2);
          text += `  ${slice.slice(2, -2).replaceAll('\n', '\n  ')}`;
          text += j + SLICE < value.length ? ',\n' : '\n';
          emit(text);
          text = '';
          await nextTurn();
        }
        text += '  ]';
      } else {
        text += JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');
      }
      emit(`${text}${i < keys.length - 1 ? ',' : ''}\n`);
    }
    emit('}\n');
  }
  return { text: Buffer.concat(chunks), sha256: hash.digest('hex') };
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
