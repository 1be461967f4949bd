// npm's rules for a package name (validate-npm-package-name), loosened to legacy capitals: nothing else is a path.
const NAME = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i

/** Whether `name` is an npm package name: what the adapters read from manifests and the relay from packument paths. */
export const isPackageName = (name: string) => NAME.test(name) && name.length <= 214
