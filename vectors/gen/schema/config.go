package main

// The configuration payloads: examples/config/*.tf.json decoded as Terraform decodes the
// configuration of a resource, data source or provider block, with Debian's HCL 2.14.1
// and go-cty 1.12.1:
//
//   - the file is parsed by HCL's JSON parser and read with Terraform's top-level schema;
//   - the block's meta-arguments are taken out with Terraform's resource, data or provider
//     block schema (PartialContent), and a "_" block's body merged back (MergeBodies);
//   - variables are their defaults: the type constraint read by typeexpr
//     (TypeConstraintWithDefaults, with Terraform's "list" and "map" shorthands), the
//     defaults applied, then convert.Convert to the constraint; a variable without a
//     default is an unknown of its type. Local values are evaluated in dependency order;
//   - count.index / each.key / each.value are those of the instance key, and any other
//     reference root (another resource, data) is cty.DynamicVal, as at plan time;
//   - dynblock.Expand, then hcldec.Decode with the spec Terraform's configschema builds
//     (decoderSpec in main.go).
//
// go-cty 1.12.1 has no refinements: where Terraform >= 1.6 refines an unknown (a template
// with a known prefix), the payload here is the plain unknown. The manifest records these
// bytes; tests/behaviour/config.rs checks that ctywire's payloads, with their refinements removed,
// are these bytes.

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hcldec"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

type configCase struct {
	name    string // the payload files' base name
	file    string // in examples/config
	address string // ctywire's address syntax
	kind    string // "resource", "data" or "provider"
	labels  []string
	alias   string
	count   *int64
	eachKey *string
	schema  string // key of the schemas map
	note    string
}

func i64(v int64) *int64    { return &v }
func str(v string) *string { return &v }

var configCases = []configCase{
	{name: "instance.web", file: "instance.tf.json", address: "cloud_instance.web", kind: "resource", labels: []string{"cloud_instance", "web"}, schema: "resource cloud_instance",
		note: "variables with optional() defaults, locals, templates and escapes, comments, meta-arguments, every block nesting, dynamic blocks (one with labels), nested attributes"},
	{name: "provider.cloud", file: "provider.tf.json", address: "provider.cloud", kind: "provider", labels: []string{"cloud"}, schema: "provider",
		note: "the default provider configuration"},
	{name: "provider.cloud.us", file: "provider.tf.json", address: "provider.cloud.us", kind: "provider", labels: []string{"cloud"}, alias: "us", schema: "provider",
		note: "an aliased provider configuration, its token a variable without a default (unknown)"},
	{name: "image.debian", file: "image.tf.json", address: "data.cloud_image.debian", kind: "data", labels: []string{"cloud_image", "debian"}, schema: "data_source cloud_image",
		note: "a data source with SET blocks"},
	{name: "buckets.logs.1", file: "buckets.tf.json", address: "cloud_bucket.logs[1]", kind: "resource", labels: []string{"cloud_bucket", "logs"}, count: i64(1), schema: "resource cloud_bucket",
		note: "an instance of a counted resource, dynamic blocks over an object"},
	{name: "buckets.assets.us", file: "buckets.tf.json", address: `cloud_bucket.assets["us"]`, kind: "resource", labels: []string{"cloud_bucket", "assets"}, eachKey: str("us"), schema: "resource cloud_bucket",
		note: "an instance of a for_each resource, an empty block list"},
	{name: "unknown.app", file: "unknown.tf.json", address: "cloud_instance.app", kind: "resource", labels: []string{"cloud_instance", "app"}, schema: "resource cloud_instance",
		note: "values from other resources and a variable without a default: unknowns, templates with known prefixes, dynamic blocks over unknown collections"},
}

var configFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"}, {Type: "provider", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}}, {Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}}, {Type: "module", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}}, {Type: "data", LabelNames: []string{"type", "name"}},
}}

var commonResourceAttributes = []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"}}

var metaSchemas = map[string]*hcl.BodySchema{
	"resource": {Attributes: commonResourceAttributes, Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"}, {Type: "lifecycle"}, {Type: "connection"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "_"}}},
	"data": {Attributes: commonResourceAttributes, Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"}, {Type: "locals"}, {Type: "_"}}},
	"provider": {Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"}, {Name: "count"}, {Name: "depends_on"}, {Name: "for_each"}, {Name: "source"}},
		Blocks: []hcl.BlockHeaderSchema{{Type: "_"}, {Type: "lifecycle"}, {Type: "locals"}}},
}

var variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "description"}, {Name: "default"}, {Name: "type"}, {Name: "sensitive"}, {Name: "nullable"}}}

func checkDiags(what string, diags hcl.Diagnostics) {
	if diags.HasErrors() {
		panic(fmt.Sprintf("%s: %s", what, diags.Error()))
	}
}

// variableValue is Terraform's value of a root module variable left unset: its default
// with the type's defaults applied and converted, or an unknown of its type.
func variableValue(block *hcl.Block) cty.Value {
	content, diags := block.Body.Content(variableSchema)
	checkDiags("variable", diags)
	constraint := cty.DynamicPseudoType
	var defaults *typeexpr.Defaults
	if attr, ok := content.Attributes["type"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "list":
			constraint = cty.List(cty.DynamicPseudoType)
		case "map":
			constraint = cty.Map(cty.DynamicPseudoType)
		default:
			constraint, defaults, diags = typeexpr.TypeConstraintWithDefaults(attr.Expr)
			checkDiags("variable type", diags)
		}
	}
	attr, ok := content.Attributes["default"]
	if !ok {
		return cty.UnknownVal(constraint.WithoutOptionalAttributesDeep())
	}
	val, diags := attr.Expr.Value(nil)
	checkDiags("variable default", diags)
	if defaults != nil && !val.IsNull() {
		val = defaults.Apply(val)
	}
	val, err := convert.Convert(val, constraint)
	check(err)
	return val
}

// localValues evaluates the locals in dependency order.
func localValues(attrs hcl.Attributes, ctx *hcl.EvalContext) cty.Value {
	values := map[string]cty.Value{}
	var visit func(name string)
	visiting := map[string]bool{}
	visit = func(name string) {
		if _, done := values[name]; done {
			return
		}
		if visiting[name] {
			panic("local value cycle at " + name)
		}
		visiting[name] = true
		attr := attrs[name]
		for _, t := range attr.Expr.Variables() {
			if t.RootName() == "local" && len(t) > 1 {
				if step, ok := t[1].(hcl.TraverseAttr); ok {
					visit(step.Name)
				}
			}
		}
		ctx.Variables["local"] = cty.ObjectVal(values)
		v, diags := attr.Expr.Value(ctx)
		checkDiags("local "+name, diags)
		values[name] = v
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		visit(name)
	}
	return cty.ObjectVal(values)
}

// configValue decodes one case's block as Terraform does.
func configValue(root string, c configCase, schema *jsonBlock) cty.Value {
	path := filepath.Join(root, "examples/config", c.file)
	src, err := os.ReadFile(path)
	check(err)
	file, diags := hcljson.Parse(src, "examples/config/"+c.file)
	checkDiags(c.file, diags)
	content, diags := file.Body.Content(configFileSchema)
	checkDiags(c.file, diags)

	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}}
	vars := map[string]cty.Value{}
	localAttrs := hcl.Attributes{}
	var target *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "variable":
			vars[b.Labels[0]] = variableValue(b)
		case "locals":
			attrs, diags := b.Body.JustAttributes()
			checkDiags("locals", diags)
			for name, a := range attrs {
				localAttrs[name] = a
			}
		case c.kind:
			if fmt.Sprint(b.Labels) != fmt.Sprint(c.labels) {
				continue
			}
			if c.kind == "provider" {
				pc, _, diags := b.Body.PartialContent(metaSchemas["provider"])
				checkDiags("provider", diags)
				alias := ""
				if a, ok := pc.Attributes["alias"]; ok {
					v, diags := a.Expr.Value(nil)
					checkDiags("alias", diags)
					alias = v.AsString()
				}
				if alias != c.alias {
					continue
				}
			}
			target = b
		}
	}
	if target == nil {
		panic(c.address + ": no such block")
	}
	ctx.Variables["var"] = cty.ObjectVal(vars)
	// References to other resources and data sources: unknown at plan time.
	for _, other := range []string{"cloud_bucket", "cloud_instance", "data"} {
		ctx.Variables[other] = cty.DynamicVal
	}
	ctx.Variables["local"] = localValues(localAttrs, ctx)
	if c.count != nil {
		ctx.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(*c.count)})
	}

	meta, remain, diags := target.Body.PartialContent(metaSchemas[c.kind])
	checkDiags("meta-arguments", diags)
	if c.eachKey != nil {
		forEach, diags := meta.Attributes["for_each"].Expr.Value(ctx)
		checkDiags("for_each", diags)
		ctx.Variables["each"] = cty.ObjectVal(map[string]cty.Value{
			"key":   cty.StringVal(*c.eachKey),
			"value": forEach.GetAttr(*c.eachKey),
		})
	}
	for _, b := range meta.Blocks {
		if b.Type == "_" {
			remain = hcl.MergeBodies([]hcl.Body{remain, b.Body})
		}
	}
	spec := decoderSpec(schema)
	expanded := dynblock.Expand(remain, ctx)
	val, diags := hcldec.Decode(expanded, spec, ctx)
	checkDiags(c.address, diags)
	return val
}

type configManifestEntry struct {
	Name    string `json:"name"`
	Config  string `json:"config"`
	Address string `json:"address"`
	Schema  string `json:"schema"`
	Note    string `json:"note"`
	// go-cty's MessagePack payload, as hex; a file of the same bytes unless the value
	// holds unknowns that Terraform >= 1.6 would refine.
	Msgpack string `json:"msgpack_hex"`
	JSON    string `json:"json,omitempty"`
}

// writeConfigPayloads decodes every case, writes examples/config/NAME.json for wholly
// known values and examples/config/NAME.msgpack where go-cty 1.12.1's bytes are
// Terraform's (no unknowns), and returns the manifest entries.
func writeConfigPayloads(root string, schemas map[string]*jsonBlock, types map[string]cty.Type) []configManifestEntry {
	var entries []configManifestEntry
	for _, c := range configCases {
		ty := types[c.schema]
		val := configValue(root, c, schemas[c.schema])
		if errs := val.Type().TestConformance(ty); errs != nil && val.IsWhollyKnown() {
			panic(fmt.Sprintf("%s: value does not conform: %v", c.name, errs))
		}
		mp, err := msgpack.Marshal(val, ty)
		check(err)
		entry := configManifestEntry{
			Name: c.name, Config: "examples/config/" + c.file, Address: c.address,
			Schema: c.schema, Note: c.note, Msgpack: hex.EncodeToString(mp),
		}
		if val.IsWhollyKnown() {
			check(os.WriteFile(filepath.Join(root, "examples/config", c.name+".msgpack"), mp, 0o644))
			js, err := ctyjson.Marshal(val, ty)
			check(err)
			entry.JSON = "examples/config/" + c.name + ".json"
			check(os.WriteFile(filepath.Join(root, entry.JSON), js, 0o644))
		}
		entries = append(entries, entry)
	}
	return entries
}
