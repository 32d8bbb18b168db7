import { compareCodeUnits } from '../code-unit-order.js';

/**
 * Spec 4.4: stops a runaway turn. Trips on the same tool with the same arguments three times in
 * a row, an A/B flip-flop (A, B, A, B) within the recent calls, or three calls in a row with
 * arguments that do not validate (a model stuck on a schema it cannot satisfy).
 */
export class LoopGuard {
  private recent: string[] = [];
  private malformedInARow = 0;

  constructor(
    private readonly repeatLimit = 3,
    private readonly flipFlopPairs = 2,
    private readonly malformedLimit = 3,
  ) {}

  /** Records a valid call; returns a message for the model and the user when the turn must stop using tools. */
  check(name: string, args: unknown): string | null {
    this.malformedInARow = 0;
    const key = `${name}\u0000${stableJson(args)}`;
    this.recent.push(key);
    if (this.recent.length > 12) this.recent.shift();
    const n = this.recent.length;
    if (n >= this.repeatLimit && this.recent.slice(-this.repeatLimit).every((k) => k === key)) {
      return `loop guard: ${name} was called with the same arguments ${this.repeatLimit} times in a row; tool use stopped for this turn. Answer with what you have.`;
    }
    const span = this.flipFlopPairs * 2;
    if (n >= span) {
      const tail = this.recent.slice(-span);
      const [a, b] = tail;
      if (a !== b && tail.every((k, i) => k === (i % 2 === 0 ? a : b))) {
        return `loop guard: the same two tool calls alternated ${this.flipFlopPairs} times; tool use stopped for this turn. Answer with what you have.`;
      }
    }
    return null;
  }

  /** Records a call whose arguments did not validate (or named no known tool). */
  malformed(name: string): string | null {
    this.malformedInARow++;
    if (this.malformedInARow < this.malformedLimit) return null;
    return `loop guard: ${this.malformedLimit} tool calls in a row had invalid arguments (the last: ${name}); tool use stopped for this turn. Answer with what you have.`;
  }
}

export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareCodeUnits(a, b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}
