/**
 * The part of a Durable Object namespace that src/ uses: a stub by name, typed by the RPC methods it
 * calls. The classes live in durable-objects/ and import src/; typing bindings by these small
 * interfaces keeps every dependency pointing from durable-objects/ to src/ (issue 11 point 4).
 */
export interface NamedObjects<Stub> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): Stub;
}
