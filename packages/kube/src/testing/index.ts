// Shared fakes for tests of packages that stand on @oooi/kube.
export {};
