// @oooi/xds — public entry. See README.md.
export {};
