// @oooi/controller — public entry. See README.md.
export {};
