// Entry point of the oooi-dhcp process (bundled into its container image).
console.error('oooi-dhcp: not implemented yet');
process.exitCode = 1;
