/** A JSON value, as an OpenAPI document holds it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON Schema (OpenAPI 3.1) or any other object of the document. */
export type JsonObject = { [key: string]: Json };
