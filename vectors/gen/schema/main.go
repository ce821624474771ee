// Command schema writes the byte-exact payloads for the example provider schema
// (examples/schema/provider.json) with Debian's go-cty 1.12.1, and the implied types that
// HCL's hcldec computes for its schemas. It is a development tool: the Rust tests read its
// outputs and never need Go.
//
// Build and run in GOPATH mode from the repository root (Debian packages golang-go,
// golang-github-zclconf-go-cty-dev, golang-github-hashicorp-hcl-v2-dev):
//
//	GOPATH=/tmp/gopath:/usr/share/gocode GO111MODULE=off go run ./vectors/gen/schema
//
// It reads examples/schema/provider.json (and, in config.go, examples/config/*.tf.json)
// and writes:
//
//   - examples/payloads/NAME.msgpack: raw MessagePack from go-cty's msgpack.Marshal;
//   - examples/payloads/NAME.json: go-cty's json.Marshal, for payloads without unknowns;
//   - vectors/schema/gocty.json: the implied type (type JSON) of every schema, the list of
//     payloads with the schema each is typed by, and provenance;
//   - examples/config/NAME.msgpack and NAME.json, and vectors/config/gocty.json: the
//     configuration payloads of config.go;
//   - vectors/config/errors.json: HCL's diagnostics for the configurations of
//     config_errors.go.
//
// The implied types are computed the way Terraform's configschema package does it: an
// hcldec spec per block (BlockTupleSpec / BlockObjectSpec for LIST / MAP blocks whose
// contents hold dynamic types, a DefaultSpec with the empty value for GROUP blocks),
// hcldec.ImpliedType, then WithoutOptionalAttributesDeep. The payload values are built
// by hand below; every one must conform to its implied type before it is marshalled.
//
// Not here: refined unknowns (go-cty 1.12.1 has none; the refined payload comes from the
// Rust encoder, see tests/conformance/schema.rs) and integral floats at or beyond 2^63 (1.12.1 writes
// them as floats, current go-cty as strings).
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// ---- the schema JSON, as `providers schema -json` prints it ----

type jsonDoc struct {
	FormatVersion   string                   `json:"format_version"`
	ProviderSchemas map[string]*jsonProvider `json:"provider_schemas"`
}

type jsonProvider struct {
	Provider          *jsonSchema            `json:"provider"`
	ResourceSchemas   map[string]*jsonSchema `json:"resource_schemas"`
	DataSourceSchemas map[string]*jsonSchema `json:"data_source_schemas"`
}

type jsonSchema struct {
	Version int        `json:"version"`
	Block   *jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes map[string]*jsonAttribute `json:"attributes"`
	BlockTypes map[string]*jsonBlockType `json:"block_types"`
}

type jsonAttribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *jsonNestedType `json:"nested_type"`
	Required   bool            `json:"required"`
	Optional   bool            `json:"optional"`
	Computed   bool            `json:"computed"`
}

type jsonNestedType struct {
	Attributes  map[string]*jsonAttribute `json:"attributes"`
	NestingMode string                    `json:"nesting_mode"`
}

type jsonBlockType struct {
	NestingMode string     `json:"nesting_mode"`
	Block       *jsonBlock `json:"block"`
	MinItems    int        `json:"min_items"`
	MaxItems    int        `json:"max_items"`
}

func (b *jsonBlock) nested(name string) *jsonBlock {
	bt, ok := b.BlockTypes[name]
	if !ok {
		panic("no block type " + name)
	}
	if bt.Block == nil {
		return &jsonBlock{}
	}
	return bt.Block
}

// ---- implied types, through hcldec ----

func attributeType(a *jsonAttribute) cty.Type {
	if a.NestedType != nil {
		return nestedImpliedType(a.NestedType)
	}
	var ty cty.Type
	if err := json.Unmarshal(a.Type, &ty); err != nil {
		panic(err)
	}
	return ty
}

// nestedImpliedType is the spec type of a protocol-6 nested attribute type: optional and
// computed attributes are optional in the object type (the markers are stripped later).
func nestedImpliedType(n *jsonNestedType) cty.Type {
	attrs := map[string]cty.Type{}
	var optional []string
	for name, a := range n.Attributes {
		attrs[name] = attributeType(a)
		if a.Optional || a.Computed {
			optional = append(optional, name)
		}
	}
	sort.Strings(optional)
	obj := cty.ObjectWithOptionalAttrs(attrs, optional)
	switch n.NestingMode {
	case "single":
		return obj
	case "list":
		return cty.List(obj)
	case "set":
		return cty.Set(obj)
	case "map":
		return cty.Map(obj)
	}
	panic("bad nesting mode " + n.NestingMode)
}

func decoderSpec(b *jsonBlock) hcldec.ObjectSpec {
	spec := hcldec.ObjectSpec{}
	if b == nil {
		return spec
	}
	for name, a := range b.Attributes {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: attributeType(a), Required: a.Required}
	}
	for name, bt := range b.BlockTypes {
		if _, clash := spec[name]; clash {
			continue
		}
		child := decoderSpec(bt.Block)
		dynamic := blockImpliedType(bt.Block).HasDynamicTypes()
		switch bt.NestingMode {
		case "single":
			spec[name] = &hcldec.BlockSpec{TypeName: name, Nested: child, Required: bt.MinItems == 1}
		case "group":
			spec[name] = &hcldec.DefaultSpec{
				Primary: &hcldec.BlockSpec{TypeName: name, Nested: child},
				Default: &hcldec.LiteralSpec{Value: emptyNested(bt)},
			}
		case "list":
			if dynamic {
				spec[name] = &hcldec.BlockTupleSpec{TypeName: name, Nested: child, MinItems: bt.MinItems, MaxItems: bt.MaxItems}
			} else {
				spec[name] = &hcldec.BlockListSpec{TypeName: name, Nested: child, MinItems: bt.MinItems, MaxItems: bt.MaxItems}
			}
		case "set":
			spec[name] = &hcldec.BlockSetSpec{TypeName: name, Nested: child, MinItems: bt.MinItems, MaxItems: bt.MaxItems}
		case "map":
			if dynamic {
				spec[name] = &hcldec.BlockObjectSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
			} else {
				spec[name] = &hcldec.BlockMapSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
			}
		default:
			panic("bad nesting mode " + bt.NestingMode)
		}
	}
	return spec
}

func blockImpliedType(b *jsonBlock) cty.Type {
	return hcldec.ImpliedType(decoderSpec(b)).WithoutOptionalAttributesDeep()
}

// ---- empty values (Terraform's EmptyValue) ----

func emptyBlock(b *jsonBlock) cty.Value {
	vals := map[string]cty.Value{}
	if b == nil {
		return cty.EmptyObjectVal
	}
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(attributeType(a).WithoutOptionalAttributesDeep())
	}
	for name, bt := range b.BlockTypes {
		if _, clash := vals[name]; clash {
			continue
		}
		vals[name] = emptyNested(bt)
	}
	return cty.ObjectVal(vals)
}

func emptyNested(bt *jsonBlockType) cty.Value {
	ty := blockImpliedType(bt.Block)
	switch bt.NestingMode {
	case "single":
		return cty.NullVal(ty)
	case "group":
		return emptyBlock(bt.Block)
	case "list":
		if ty.HasDynamicTypes() {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ty)
	case "set":
		return cty.SetValEmpty(ty)
	case "map":
		if ty.HasDynamicTypes() {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ty)
	}
	panic("bad nesting mode " + bt.NestingMode)
}

// block builds a block's object: the given attributes, every other attribute null and
// every other nested block type its empty value (what Terraform decodes from a block
// that leaves them out).
func block(b *jsonBlock, given map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(attributeType(a).WithoutOptionalAttributesDeep())
	}
	for name, bt := range b.BlockTypes {
		vals[name] = emptyNested(bt)
	}
	for name, v := range given {
		if _, ok := vals[name]; !ok {
			panic("no attribute or block type " + name)
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals)
}

// with returns object value v with the given attributes replaced.
func with(v cty.Value, changes map[string]cty.Value) cty.Value {
	vals := v.AsValueMap()
	for name, c := range changes {
		if _, ok := vals[name]; !ok {
			panic("no attribute " + name)
		}
		vals[name] = c
	}
	return cty.ObjectVal(vals)
}

// ---- short constructors ----

func s(v string) cty.Value  { return cty.StringVal(v) }
func n(v int64) cty.Value   { return cty.NumberIntVal(v) }
func f(v float64) cty.Value { return cty.NumberFloatVal(v) }
func dec(v string) cty.Value {
	return cty.MustParseNumberVal(v)
}
func strs(vs ...string) []cty.Value {
	out := make([]cty.Value, len(vs))
	for i, v := range vs {
		out[i] = s(v)
	}
	return out
}
func strMap(kv ...string) cty.Value {
	m := map[string]cty.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = s(kv[i+1])
	}
	return cty.MapVal(m)
}

var (
	nullString  = cty.NullVal(cty.String)
	nullNumber  = cty.NullVal(cty.Number)
	nullBool    = cty.NullVal(cty.Bool)
	nullDynamic = cty.NullVal(cty.DynamicPseudoType)
)

// ---- the payloads ----

type payload struct {
	name   string
	schema string // "provider", "resource NAME" or "data_source NAME"
	note   string
	value  cty.Value
}

func instancePayloads(inst *jsonBlock, ty cty.Type) []payload {
	disk := inst.nested("disk")
	ext := inst.nested("extension")
	ingress := inst.nested("ingress")
	label := inst.nested("label")
	monitoring := inst.nested("monitoring")
	alarm := monitoring.nested("alarm")
	pipeline := inst.nested("pipeline")
	step := pipeline.nested("step")
	plugin := inst.nested("plugin")
	timeouts := inst.nested("timeouts")
	encryption := disk.nested("encryption")

	att := func(name string) cty.Type { return ty.AttributeType(name) }
	vols := att("volumes").ElementType()

	configured := map[string]cty.Value{
		"name":          s("web-1"),
		"image_id":      s("img-0a1b2c3d"),
		"instance_type": s("m5.large"),
		"tags": cty.MapVal(map[string]cty.Value{
			"Name":      s("web-1"),
			"env":       s("prod"),
			"team<ops>": s("a&b"),
			"café":      s("crème brûlée"),
		}),
		"user_data":          s("#!/bin/sh\necho \"hello\"\n"),
		"admin_password":     s("hunter2"),
		"security_group_ids": cty.SetVal(strs("sg-b", "sg-a", "sg-10")),
		"metadata": cty.ObjectVal(map[string]cty.Value{
			"owner":       s("alice"),
			"cost_center": n(1234),
			"critical":    cty.True,
		}),
		"launch_settings": cty.ObjectVal(map[string]cty.Value{
			"mode":    s("fast"),
			"retries": nullNumber,
			"spot":    cty.True,
		}),
		"boot_disk": cty.ObjectVal(map[string]cty.Value{
			"size_gb":   n(50),
			"type":      nullString,
			"encrypted": cty.True,
		}),
		"network_interfaces": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-1"), "private_ip": s("10.0.0.5"), "public_ip": nullString}),
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-2"), "private_ip": nullString, "public_ip": nullString}),
		}),
		"ports": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": n(443), "protocol": s("tcp")}),
			cty.ObjectVal(map[string]cty.Value{"port": n(80), "protocol": nullString}),
			cty.ObjectVal(map[string]cty.Value{"port": n(8443), "protocol": s("tcp")}),
		}),
		"volumes": cty.MapVal(map[string]cty.Value{
			"data": cty.ObjectVal(map[string]cty.Value{"size_gb": n(100), "kms_key_id": s("key-1"), "iops": nullNumber}),
			"logs": cty.ObjectVal(map[string]cty.Value{"size_gb": n(20), "kms_key_id": nullString, "iops": nullNumber}),
		}),
		"disk": cty.ListVal([]cty.Value{
			block(disk, map[string]cty.Value{
				"device_name": s("/dev/sdb"),
				"size_gb":     n(100),
				"volume_type": s("gp3"),
				"encryption":  block(encryption, map[string]cty.Value{"kms_key_id": s("key-1")}),
			}),
			block(disk, map[string]cty.Value{
				"device_name": s("/dev/sdc"),
				"snapshot_id": s("snap-1"),
			}),
		}),
		"ingress": cty.SetVal([]cty.Value{
			block(ingress, map[string]cty.Value{
				"from_port": n(443), "to_port": n(443), "protocol": s("tcp"),
				"cidr_blocks": cty.ListVal(strs("0.0.0.0/0")), "description": s("https"),
			}),
			block(ingress, map[string]cty.Value{
				"from_port": n(22), "to_port": n(22), "protocol": s("tcp"),
				"cidr_blocks": cty.ListVal(strs("10.0.0.0/8", "192.168.0.0/16")),
			}),
		}),
		"label": cty.MapVal(map[string]cty.Value{
			"env":  block(label, map[string]cty.Value{"value": s("prod"), "propagate": cty.True}),
			"team": block(label, map[string]cty.Value{"value": s("platform")}),
		}),
		// A LIST block holding a dynamic attribute: a tuple, each block with its own
		// type for `settings`.
		"extension": cty.TupleVal([]cty.Value{
			block(ext, map[string]cty.Value{"name": s("agent"), "settings": s("default"), "version": s("1.2")}),
			block(ext, map[string]cty.Value{
				"name": s("backup"),
				"settings": cty.ObjectVal(map[string]cty.Value{
					"schedule": s("daily"),
					"retain":   n(7),
				}),
			}),
			block(ext, map[string]cty.Value{"name": s("noop"), "settings": nullDynamic}),
		}),
		// A MAP block holding a dynamic attribute: an object keyed by label.
		"plugin": cty.ObjectVal(map[string]cty.Value{
			"metrics": block(plugin, map[string]cty.Value{
				"source": s("example/metrics"),
				"config": cty.ObjectVal(map[string]cty.Value{"port": n(9100), "path": s("/metrics")}),
			}),
			"tracing": block(plugin, map[string]cty.Value{
				"source": s("example/tracing"),
				"config": cty.TupleVal(strs("jaeger", "zipkin")),
			}),
		}),
		// A LIST block whose LIST block holds a dynamic attribute: both are tuples.
		"pipeline": cty.TupleVal([]cty.Value{
			block(pipeline, map[string]cty.Value{
				"name": s("build"),
				"step": cty.TupleVal([]cty.Value{
					block(step, map[string]cty.Value{
						"command": s("make"),
						"env":     cty.ObjectVal(map[string]cty.Value{"CC": s("gcc")}),
					}),
					block(step, map[string]cty.Value{"command": s("make test"), "env": nullDynamic}),
				}),
			}),
		}),
	}
	config := block(inst, configured)

	// The plan: computed attributes unknown, the write-only attribute null.
	planned := with(config, map[string]cty.Value{
		"id":             cty.UnknownVal(cty.String),
		"arn":            cty.UnknownVal(cty.String),
		"private_ip":     cty.UnknownVal(cty.String),
		"cpu_count":      cty.UnknownVal(cty.Number),
		"tags_all":       cty.UnknownVal(att("tags_all")),
		"admin_password": nullString,
		"boot_disk": cty.ObjectVal(map[string]cty.Value{
			"size_gb": n(50), "type": cty.UnknownVal(cty.String), "encrypted": cty.True,
		}),
		"network_interfaces": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-1"), "private_ip": s("10.0.0.5"), "public_ip": cty.UnknownVal(cty.String)}),
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-2"), "private_ip": cty.UnknownVal(cty.String), "public_ip": cty.UnknownVal(cty.String)}),
		}),
		"volumes": cty.MapVal(map[string]cty.Value{
			"data": cty.ObjectVal(map[string]cty.Value{"size_gb": n(100), "kms_key_id": s("key-1"), "iops": cty.UnknownVal(cty.Number)}),
			"logs": cty.ObjectVal(map[string]cty.Value{"size_gb": n(20), "kms_key_id": nullString, "iops": cty.UnknownVal(cty.Number)}),
		}),
		"disk": cty.ListVal([]cty.Value{
			config.GetAttr("disk").Index(n(0)),
			with(config.GetAttr("disk").Index(n(1)), map[string]cty.Value{"size_gb": cty.UnknownVal(cty.Number)}),
		}),
	})

	// A configuration with unknowns: an image ID from a data source not read yet,
	// dynamic blocks whose for_each is unknown (a whole LIST block, a dynamic LIST block,
	// a MAP block, a dynamic block inside a dynamic block), more disks than max_items
	// but one of them unknown in part.
	diskN := func(dev string, size cty.Value) cty.Value {
		return block(disk, map[string]cty.Value{"device_name": s(dev), "size_gb": size})
	}
	configUnknown := with(config, map[string]cty.Value{
		"image_id": cty.UnknownVal(cty.String),
		"tags":     cty.MapVal(map[string]cty.Value{"Name": cty.UnknownVal(cty.String), "env": s("prod")}),
		"metadata": cty.DynamicVal,
		"disk": cty.ListVal([]cty.Value{
			diskN("/dev/sdb", n(10)), diskN("/dev/sdc", n(10)), diskN("/dev/sdd", cty.UnknownVal(cty.Number)),
			diskN("/dev/sde", n(10)), diskN("/dev/sdf", nullNumber),
		}),
		"ingress":   cty.UnknownVal(att("ingress")),
		"label":     cty.UnknownVal(att("label")),
		"extension": cty.DynamicVal,
		"pipeline": cty.TupleVal([]cty.Value{
			block(pipeline, map[string]cty.Value{"name": s("build"), "step": cty.DynamicVal}),
		}),
		"ports": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": cty.UnknownVal(cty.Number), "protocol": s("tcp")}),
			cty.ObjectVal(map[string]cty.Value{"port": cty.UnknownVal(cty.Number), "protocol": s("tcp")}),
		}),
		"network_interfaces": cty.UnknownVal(att("network_interfaces")),
		"volumes":            cty.MapValEmpty(vols),
		"boot_disk":          cty.UnknownVal(att("boot_disk")),
	})

	// The state after apply: everything known, the write-only attribute null, some
	// block collections empty, the GROUP block present.
	state := with(config, map[string]cty.Value{
		"id":             s("i-0123456789abcdef0"),
		"arn":            s("arn:cloud:instance/i-0123456789abcdef0"),
		"private_ip":     s("10.0.0.5"),
		"cpu_count":      n(2),
		"tags_all":       strMap("Name", "web-1", "env", "prod", "managed-by", "terraform"),
		"admin_password": nullString,
		"metadata": cty.ObjectVal(map[string]cty.Value{
			"owner":  s("alice"),
			"serial": dec("123456789012345678901234567890"),
			"ratio":  dec("0.1"),
			"load":   f(0.25),
		}),
		"launch_settings": cty.ObjectVal(map[string]cty.Value{"mode": s("fast"), "retries": n(3), "spot": cty.False}),
		"boot_disk": cty.ObjectVal(map[string]cty.Value{
			"size_gb": n(50), "type": s("ssd"), "encrypted": cty.True,
		}),
		"network_interfaces": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-1"), "private_ip": s("10.0.0.5"), "public_ip": s("203.0.113.10")}),
			cty.ObjectVal(map[string]cty.Value{"subnet_id": s("subnet-2"), "private_ip": s("10.0.1.7"), "public_ip": nullString}),
		}),
		"volumes": cty.MapVal(map[string]cty.Value{
			"data": cty.ObjectVal(map[string]cty.Value{"size_gb": n(100), "kms_key_id": s("key-1"), "iops": n(3000)}),
			"logs": cty.ObjectVal(map[string]cty.Value{"size_gb": n(20), "kms_key_id": nullString, "iops": n(-1)}),
		}),
		"disk": cty.ListVal([]cty.Value{
			config.GetAttr("disk").Index(n(0)),
			with(config.GetAttr("disk").Index(n(1)), map[string]cty.Value{"size_gb": n(8)}),
		}),
		"ingress":   cty.SetValEmpty(att("ingress").ElementType()),
		"label":     cty.MapValEmpty(att("label").ElementType()),
		"extension": cty.EmptyTupleVal,
		"plugin":    cty.EmptyObjectVal,
		"monitoring": block(monitoring, map[string]cty.Value{
			"enabled":          cty.True,
			"interval_seconds": n(60),
			"alarm": cty.ListVal([]cty.Value{
				block(alarm, map[string]cty.Value{"name": s("cpu-high"), "threshold": f(0.9)}),
				block(alarm, map[string]cty.Value{"name": s("disk-full"), "threshold": dec("0.95")}),
				block(alarm, map[string]cty.Value{"name": s("quiet")}),
			}),
		}),
		"timeouts": block(timeouts, map[string]cty.Value{"create": s("30m")}),
	})

	return []payload{
		{"cloud_instance.config", "resource cloud_instance", "a configuration, wholly known", config},
		{"cloud_instance.config-unknown", "resource cloud_instance", "a configuration with unknowns: values from other resources, dynamic blocks with unknown for_each", configUnknown},
		{"cloud_instance.planned", "resource cloud_instance", "a planned state: computed attributes unknown (plain unknowns), the write-only attribute null", planned},
		{"cloud_instance.state", "resource cloud_instance", "a new state: all known, empty block collections, the GROUP block present, numbers of every wire form", state},
		{"cloud_instance.empty", "resource cloud_instance", "Terraform's EmptyValue of the block", emptyBlock(inst)},
	}
}

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	raw, err := os.ReadFile(filepath.Join(root, "examples/schema/provider.json"))
	check(err)
	var doc jsonDoc
	check(json.Unmarshal(raw, &doc))
	p := doc.ProviderSchemas["registry.terraform.io/example/cloud"]

	schemas := map[string]*jsonBlock{
		"provider":                p.Provider.Block,
		"resource cloud_instance": p.ResourceSchemas["cloud_instance"].Block,
		"resource cloud_bucket":   p.ResourceSchemas["cloud_bucket"].Block,
		"data_source cloud_image": p.DataSourceSchemas["cloud_image"].Block,
	}
	types := map[string]cty.Type{}
	impliedJSON := map[string]string{}
	for name, b := range schemas {
		types[name] = blockImpliedType(b)
		j, err := types[name].MarshalJSON()
		check(err)
		impliedJSON[name] = string(j)
	}

	prov := schemas["provider"]
	image := schemas["data_source cloud_image"]
	bucket := schemas["resource cloud_bucket"]
	payloads := instancePayloads(schemas["resource cloud_instance"], types["resource cloud_instance"])
	payloads = append(payloads,
		payload{"provider.config", "provider", "the provider configuration", block(prov, map[string]cty.Value{
			"region":      s("eu-west-1"),
			"token":       s("tok-123"),
			"max_retries": n(5),
			"assume_role": cty.ListVal([]cty.Value{
				block(prov.nested("assume_role"), map[string]cty.Value{
					"role_arn":     s("arn:cloud:iam::123456789012:role/deploy"),
					"session_name": s("ci"),
				}),
			}),
			"default_tags": block(prov.nested("default_tags"), map[string]cty.Value{
				"tags": strMap("managed-by", "terraform"),
			}),
		})},
		payload{"cloud_image.config", "data_source cloud_image", "a data source configuration", block(image, map[string]cty.Value{
			"name_regex":  s("^debian-12-"),
			"most_recent": cty.True,
			"filter": cty.SetVal([]cty.Value{
				block(image.nested("filter"), map[string]cty.Value{"name": s("architecture"), "values": cty.SetVal(strs("x86_64", "arm64"))}),
				block(image.nested("filter"), map[string]cty.Value{"name": s("virtualization"), "values": cty.SetVal(strs("hvm"))}),
			}),
		})},
		payload{"cloud_bucket.config", "resource cloud_bucket", "a configuration with no blocks of a LIST block type", block(bucket, map[string]cty.Value{
			"name": s("logs"),
		})},
	)

	type manifestPayload struct {
		Name    string `json:"name"`
		Schema  string `json:"schema"`
		Note    string `json:"note"`
		Msgpack string `json:"msgpack"`
		JSON    string `json:"json,omitempty"`
		// What go-cty writes as msgpack after reading the JSON back, when that differs
		// from the msgpack file (a float64 such as 0.9 becomes the decimal 0.9).
		MsgpackFromJSON string `json:"msgpack_from_json_hex,omitempty"`
	}
	manifest := struct {
		Generator    string            `json:"generator"`
		ImpliedTypes map[string]string `json:"implied_types"`
		Payloads     []manifestPayload `json:"payloads"`
	}{
		Generator:    "vectors/gen/schema/main.go: Debian golang-github-zclconf-go-cty-dev 1.12.1 (msgpack.Marshal, json.Marshal), golang-github-hashicorp-hcl-v2-dev 2.14.1 (hcldec.ImpliedType), " + goVersion(),
		ImpliedTypes: impliedJSON,
	}
	for _, pl := range payloads {
		ty := types[pl.schema]
		if errs := pl.value.Type().TestConformance(ty); errs != nil {
			panic(fmt.Sprintf("%s: value does not conform: %v", pl.name, errs))
		}
		mp, err := msgpack.Marshal(pl.value, ty)
		check(err)
		mpFile := "examples/payloads/" + pl.name + ".msgpack"
		check(os.WriteFile(filepath.Join(root, mpFile), mp, 0o644))
		// The bytes must decode back to an equal value.
		back, err := msgpack.Unmarshal(mp, ty)
		check(err)
		if !back.RawEquals(pl.value) && pl.value.IsWhollyKnown() {
			panic(pl.name + ": msgpack round trip differs")
		}
		entry := manifestPayload{Name: pl.name, Schema: pl.schema, Note: pl.note, Msgpack: mpFile}
		if pl.value.IsWhollyKnown() {
			js, err := ctyjson.Marshal(pl.value, ty)
			check(err)
			if bytes.Contains(js, []byte(`\u0008`)) || bytes.Contains(js, []byte(`\u000c`)) {
				panic(pl.name + ": JSON escapes differ between Go versions")
			}
			jsFile := "examples/payloads/" + pl.name + ".json"
			check(os.WriteFile(filepath.Join(root, jsFile), js, 0o644))
			entry.JSON = jsFile
			fromJSON, err := ctyjson.Unmarshal(js, ty)
			check(err)
			mp2, err := msgpack.Marshal(fromJSON, ty)
			check(err)
			if !bytes.Equal(mp, mp2) {
				entry.MsgpackFromJSON = hex.EncodeToString(mp2)
			}
		}
		manifest.Payloads = append(manifest.Payloads, entry)
	}
	out, err := json.MarshalIndent(manifest, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(root, "vectors/schema/gocty.json"), append(out, '\n'), 0o644))
	fmt.Printf("wrote %d payloads and %d implied types\n", len(payloads), len(impliedJSON))

	configEntries := writeConfigPayloads(root, schemas, types)
	configManifest := struct {
		Generator string                `json:"generator"`
		Payloads  []configManifestEntry `json:"payloads"`
	}{
		Generator: "vectors/gen/schema/config.go: Debian golang-github-hashicorp-hcl-v2-dev 2.14.1 (json.Parse, dynblock.Expand, typeexpr, hcldec.Decode), golang-github-zclconf-go-cty-dev 1.12.1 (convert, msgpack.Marshal, json.Marshal), " + goVersion(),
		Payloads:  configEntries,
	}
	out, err = json.MarshalIndent(configManifest, "", "  ")
	check(err)
	check(os.MkdirAll(filepath.Join(root, "vectors/config"), 0o755))
	check(os.WriteFile(filepath.Join(root, "vectors/config/gocty.json"), append(out, '\n'), 0o644))
	fmt.Printf("wrote %d configuration payloads\n", len(configEntries))

	errorManifest := struct {
		Generator string       `json:"generator"`
		Cases     []errorEntry `json:"cases"`
	}{
		Generator: "vectors/gen/schema/config_errors.go: Debian golang-github-hashicorp-hcl-v2-dev 2.14.1 (json.Parse, dynblock.Expand, hcldec.Decode), " + goVersion(),
		Cases:     errorDiagnostics(schemas["resource cloud_instance"]),
	}
	out, err = json.MarshalIndent(errorManifest, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(root, "vectors/config/errors.json"), append(out, '\n'), 0o644))
	fmt.Printf("wrote %d configuration error cases\n", len(errorManifest.Cases))
}

func goVersion() string {
	return runtime.Version()
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
