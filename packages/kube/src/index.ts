// @oooi/kube — public entry. See README.md.
export {};
