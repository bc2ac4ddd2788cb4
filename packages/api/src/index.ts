// @oooi/api — public entry. See README.md.
export {};
