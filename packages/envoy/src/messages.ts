// Re-exports of the generated messages the translator packs, so pure folders import them through one module (an
// import path with an `http` segment trips the pure-folder rule against the node `http` module).
export { Router } from './generated/envoy/extensions/filters/http/router/v3/router';
