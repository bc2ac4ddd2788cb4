// @oooi/dhcp — public entry. See README.md.
export {};
