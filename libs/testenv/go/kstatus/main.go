// Command kstatus-check reads Kubernetes objects as JSON on stdin (one object, a List, or a JSON array) and prints,
// one JSON line per object, what kstatus (sigs.k8s.io/cli-utils/pkg/kstatus/status, the library Flux and kpt wait
// with) computes for it. It talks to no cluster. Errors go to stderr with exit status 1.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

type verdict struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Message    string `json:"message"`
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kstatus-check:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var raw json.RawMessage
	if err := json.NewDecoder(in).Decode(&raw); err != nil {
		return fmt.Errorf("reading JSON from stdin: %w", err)
	}
	objects, err := objectsOf(raw)
	if err != nil {
		return err
	}
	encoder := json.NewEncoder(out)
	for _, object := range objects {
		u := &unstructured.Unstructured{Object: object}
		result, err := status.Compute(u)
		if err != nil {
			return fmt.Errorf("%s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
		}
		line := verdict{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName(), Status: string(result.Status), Message: result.Message}
		if err := encoder.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// objectsOf accepts a JSON array of objects, a List (an object with "items"), or a single object; whole numbers
// become int64, as the apiserver's own decoding makes them (kstatus reads generations as int64).
func objectsOf(raw json.RawMessage) ([]map[string]interface{}, error) {
	var array []map[string]interface{}
	if err := utiljson.Unmarshal(raw, &array); err == nil {
		return array, nil
	}
	var object map[string]interface{}
	if err := utiljson.Unmarshal(raw, &object); err != nil {
		return nil, fmt.Errorf("stdin is neither an object nor an array of objects: %w", err)
	}
	items, isList := object["items"].([]interface{})
	if !isList {
		return []map[string]interface{}{object}, nil
	}
	list := make([]map[string]interface{}, 0, len(items))
	for i, item := range items {
		entry, ok := item.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("items[%d] is not an object", i)
		}
		list = append(list, entry)
	}
	return list, nil
}
