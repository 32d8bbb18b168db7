import * as z from './zod.js';

/**
 * A zod schema built on first use instead of when its module loads (issue 27). Building a schema
 * runs zod's constructors for every field; a short-lived `pepe` command loads the whole core and
 * would pay for every schema in it, most of which that command never validates anything against.
 *
 * The value stands in for the schema itself (a Proxy forwarding every operation to it), so it is
 * used exactly as the schema would be: `X.parse(v)`, `z.array(X)`, `z.infer<typeof X>`,
 * `X instanceof z.ZodMiniObject`. Nothing is validated less: the first operation builds the schema and
 * every later one goes to that same instance. `build` must be pure (no side effects, no input):
 * it runs once, whenever the first use happens.
 */
export function lazySchema<T extends z.core.$ZodType>(build: () => T): T {
  let real: T | undefined;
  const schema = (): T => {
    if (real) return real;
    real = build();
    // Metadata (`.describe()`, `.meta()`) is kept in zod's registry keyed by the schema object, and
    // JSON Schema output looks it up by the object it is given: this stand-in gets the same entry.
    const meta = z.globalRegistry.get(real);
    if (meta) z.globalRegistry.add(proxy, meta);
    return real;
  };
  // The target is an empty object and never holds anything: every trap answers from the schema.
  // Descriptors are reported configurable (a Proxy may not report a property non-configurable that
  // its target lacks); nothing here defines, deletes or freezes properties on a schema.
  const proxy: T = new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(schema(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return proxy;
}
