/**
 * Structural typing lets an object with extra keys pass for an SDK type, so
 * assignability alone never catches a field the API does not define (the
 * original `scope: 'global'`). `Undeclared<Ours, Theirs>` names every key
 * path of `Ours` that `Theirs` does not declare, through nested objects,
 * arrays and unions; `never` means our shape uses only declared fields.
 */
export type Undeclared<T, U, Path extends string = ''> = T extends readonly (infer E)[]
  ? U extends readonly (infer F)[]
    ? Undeclared<E, F, `${Path}[]`>
    : `${Path}: an array where the SDK has none`
  : T extends object
    ? {
        [K in keyof T & string]-?: K extends AllKeys<U>
          ? Undeclared<NonNullable<T[K]>, NonNullable<ValueAt<U, K>>, `${Path}.${K}`>
          : `${Path}.${K}`;
      }[keyof T & string]
    : never;

/** Keys of any member of a union (a plain `keyof` of a union keeps only the shared ones). */
type AllKeys<U> = U extends unknown ? keyof U : never;
/** The type at `K` in whichever union members declare it. */
type ValueAt<U, K> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;
