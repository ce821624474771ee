package main

// Configurations that Terraform refuses, and HCL's diagnostics for them (summary,
// detail, line and column of the subject), for vectors/config/errors.json. Each is a
// cloud_instance resource decoded as in config.go, with HCL 2.14.1; the errors here are
// HCL's own (JSON bodies, hcldec, dynblock, templates), not Terraform's.

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

type errorCase struct {
	name string
	body string // the properties of cloud_instance.web's body
}

// The body every case starts from: valid on its own.
const validBody = `"name": "web", "image_id": "img-1", "disk": {"device_name": "/dev/sda"}`

var errorCases = []errorCase{
	{"extraneous-property", validBody + `, "nmae": "x", "imagee": "y"`},
	{"missing-required-argument", `"image_id": "img-1", "disk": {"device_name": "/dev/sda"}`},
	{"duplicate-argument", validBody + `, "image_id": "again"`},
	{"incorrect-value-type", validBody + `, "cpu_count": true`},
	{"nested-attribute-missing-required", validBody + `, "boot_disk": {"encrypted": true}`},
	{"insufficient-blocks", `"name": "web", "image_id": "img-1"`},
	{"too-many-blocks", validBody + `, "disk": [{"device_name": "b"}, {"device_name": "c"}, {"device_name": "d"}, {"device_name": "e"}]`},
	{"duplicate-single-block", validBody + `, "timeouts": [{}, {}]`},
	{"duplicate-map-block", validBody + `, "label": {"a": [{"value": "x"}, {"value": "y"}]}`},
	{"missing-block-label", validBody + `, "label": {}`},
	{"block-not-an-object", validBody + `, "timeouts": "5m"`},
	{"body-array-element-not-an-object", validBody + `, "ingress": [1]`},
	{"nested-required-argument", validBody + `, "ingress": {"from_port": 1, "to_port": 2}`},
	{"dynamic-unsupported-type", validBody + `, "dynamic": {"nope": {"for_each": [], "content": {}}}`},
	{"dynamic-missing-content", validBody + `, "dynamic": {"ingress": {"for_each": []}}`},
	{"dynamic-two-contents", validBody + `, "dynamic": {"ingress": {"for_each": [], "content": [{}, {}]}}`},
	{"dynamic-not-iterable", validBody + `, "dynamic": {"ingress": {"for_each": 1, "content": {}}}`},
	{"dynamic-null-for-each", validBody + `, "dynamic": {"ingress": {"for_each": null, "content": {}}}`},
	{"dynamic-missing-labels", validBody + `, "dynamic": {"label": {"for_each": [1], "content": {"value": "v"}}}`},
	{"dynamic-too-many-labels", validBody + `, "dynamic": {"label": {"for_each": [1], "labels": ["a", "b"], "content": {"value": "v"}}}`},
	{"dynamic-null-label", validBody + `, "dynamic": {"label": {"for_each": [1], "labels": [null], "content": {"value": "v"}}}`},
	{"dynamic-bad-iterator", validBody + `, "dynamic": {"ingress": {"for_each": [], "iterator": "a.b", "content": {}}}`},
	{"template-null", validBody + `, "user_data": "a${null}"`},
	{"template-unclosed", validBody + `, "user_data": "a ${ x"`},
	{"template-extra-characters", validBody + `, "user_data": "${ a b }"`},
	{"template-colon", validBody + `, "user_data": "${ a: b }"`},
	{"template-unbalanced-directive", validBody + `, "user_data": "%{ endif }"`},
	{"object-duplicate-key", validBody + `, "metadata": {"a": 1, "a": 2}`},
	{"object-null-key", validBody + `, "metadata": {"${null}": 1}`},
}

type errorDiagnostic struct {
	Summary string `json:"summary"`
	Detail  string `json:"detail"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

type errorEntry struct {
	Name        string            `json:"name"`
	Config      string            `json:"config"`
	Address     string            `json:"address"`
	Diagnostics []errorDiagnostic `json:"diagnostics"`
}

// errorDiagnostics decodes each error case and records HCL's error diagnostics.
func errorDiagnostics(schema *jsonBlock) []errorEntry {
	var entries []errorEntry
	for _, c := range errorCases {
		src := `{"resource": {"cloud_instance": {"web": {` + c.body + "}}}}"
		var diags hcl.Diagnostics
		file, parseDiags := hcljson.Parse([]byte(src), "main.tf.json")
		diags = append(diags, parseDiags...)
		if !parseDiags.HasErrors() {
			content, contentDiags := file.Body.Content(configFileSchema)
			diags = append(diags, contentDiags...)
			target := content.Blocks[0]
			_, remain, metaDiags := target.Body.PartialContent(metaSchemas["resource"])
			diags = append(diags, metaDiags...)
			ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}}
			expanded := dynblock.Expand(remain, ctx)
			_, decodeDiags := hcldec.Decode(expanded, decoderSpec(schema), ctx)
			diags = append(diags, decodeDiags...)
		}
		entry := errorEntry{Name: c.name, Config: src, Address: "cloud_instance.web"}
		for _, d := range diags {
			if d.Severity != hcl.DiagError {
				continue
			}
			// Variables in these cases are undeclared on purpose (x, a): HCL's
			// "Unknown variable" belongs to an empty context, not to the rule tested.
			if d.Summary == "Unknown variable" || strings.HasPrefix(d.Summary, "Variables not allowed") {
				continue
			}
			diag := errorDiagnostic{Summary: d.Summary, Detail: d.Detail}
			if d.Subject != nil {
				diag.Line = d.Subject.Start.Line
				diag.Column = d.Subject.Start.Column
			}
			entry.Diagnostics = append(entry.Diagnostics, diag)
		}
		if len(entry.Diagnostics) == 0 {
			panic(c.name + ": no error")
		}
		entries = append(entries, entry)
	}
	return entries
}
