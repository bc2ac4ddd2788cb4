// bundle-validate: the e2e rig's OLM bundle validator. It runs what `operator-sdk bundle validate
// --select-optional suite=operatorframework` runs, from the library operator-sdk uses
// (github.com/operator-framework/api): the default bundle validators (CSV, CRDs, bundle: every owned CRD present,
// every CRD owned), the bundle-object checks, the operatorframework suite (OperatorHub, standard capabilities and
// categories, good practices, deprecated APIs), and the registry+v1 layout checks of metadata/annotations.yaml. operator-sdk itself cannot be fetched from the Go module
// proxy here (e2e/rig/README.md).
//
//	usage: bundle-validate [--k8s-version V] BUNDLE_DIR
//
// Prints one line per finding ("ERROR ..." / "WARN ...") and exits 1 when there is an error, 2 on a usage error.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"sigs.k8s.io/yaml"
)

// The registry+v1 annotations (operator-registry's ValidateBundleFormat requires these keys and values).
var wantAnnotations = map[string]string{
	"operators.operatorframework.io.bundle.mediatype.v1": "registry+v1",
	"operators.operatorframework.io.bundle.manifests.v1": "manifests/",
	"operators.operatorframework.io.bundle.metadata.v1":  "metadata/",
}

func annotationErrors(dir string) []string {
	path := filepath.Join(dir, "metadata", "annotations.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		return []string{fmt.Sprintf("metadata/annotations.yaml: %v", err)}
	}
	var doc struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.UnmarshalStrict(raw, &doc); err != nil {
		return []string{fmt.Sprintf("metadata/annotations.yaml: %v", err)}
	}
	var out []string
	keys := make([]string, 0, len(wantAnnotations))
	for k := range wantAnnotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got := doc.Annotations[k]; got != wantAnnotations[k] {
			out = append(out, fmt.Sprintf("metadata/annotations.yaml: %s is %q, want %q", k, got, wantAnnotations[k]))
		}
	}
	for _, k := range []string{"operators.operatorframework.io.bundle.package.v1", "operators.operatorframework.io.bundle.channels.v1"} {
		if doc.Annotations[k] == "" {
			out = append(out, fmt.Sprintf("metadata/annotations.yaml: %s is missing", k))
		}
	}
	return out
}

func main() {
	k8sVersion := flag.String("k8s-version", "", "Kubernetes version for the deprecated-API check (default: the CSV's minKubeVersion)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: bundle-validate [--k8s-version V] BUNDLE_DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	errs := annotationErrors(dir)
	bundle, err := manifests.GetBundleFromDir(filepath.Join(dir, "manifests"))
	if err != nil {
		errs = append(errs, fmt.Sprintf("manifests/: %v", err))
	}
	warns := 0
	if bundle != nil {
		validators := validation.DefaultBundleValidators.WithValidators(
			validation.ObjectValidator,
			validation.OperatorHubV2Validator,
			validation.StandardCapabilitiesValidator,
			validation.StandardCategoriesValidator,
			validation.GoodPracticesValidator,
			validation.AlphaDeprecatedAPIsValidator,
		)
		objs := bundle.ObjectsToValidate()
		if *k8sVersion != "" {
			objs = append(objs, map[string]string{"k8s-version": *k8sVersion})
		}
		for _, result := range validators.Validate(objs...) {
			for _, e := range result.Errors {
				errs = append(errs, e.Error())
			}
			for _, w := range result.Warnings {
				fmt.Printf("WARN %s\n", w.Error())
				warns++
			}
		}
	}
	for _, e := range errs {
		fmt.Printf("ERROR %s\n", e)
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
	fmt.Printf("bundle %s valid (%d warning(s))\n", dir, warns)
}
