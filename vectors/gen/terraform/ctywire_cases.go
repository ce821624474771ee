//go:build ignore

// This project's own cases for the plan rules, written as Terraform's objchange test
// tables are written, so that the generator reads them the same way (it never compiles
// this file). They cover what Terraform's tables leave out: every nesting mode, nested
// attribute maps and sets, sets of objects with computed attributes, dynamic attributes
// and dynamic blocks, refinements, and one case per message. The expected values and
// messages were worked out by hand from Terraform's code at the commit the vectors
// name (internal/plans/objchange/objchange.go, plan_valid.go, compatible.go) and go-cty
// v1.18.1's GoString.
package main

func TestProposedNew(t *testing.T) {
	groupSchema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id": {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"settings": {
				Nesting: configschema.NestingGroup,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"a": {Type: cty.String, Optional: true},
						"b": {Type: cty.String, Optional: true, Computed: true},
					},
				},
			},
		},
	}
	diskAttrs := map[string]*configschema.Attribute{
		"size": {Type: cty.Number, Required: true},
		"id":   {Type: cty.String, Computed: true},
	}
	tests := map[string]struct {
		Schema *configschema.Block
		Prior  cty.Value
		Config cty.Value
		Want   cty.Value
	}{
		"group block, no prior": {
			groupSchema,
			cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.NullVal(cty.String),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NullVal(cty.String)}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.NullVal(cty.String),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NullVal(cty.String)}),
			}),
		},
		"group block keeps computed values": {
			groupSchema,
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("from-provider")}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.NullVal(cty.String),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("y"), "b": cty.NullVal(cty.String)}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("y"), "b": cty.StringVal("from-provider")}),
			}),
		},
		"group block left out of config": {
			groupSchema,
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("p")}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.NullVal(cty.String),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.NullVal(cty.String)}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.StringVal("p")}),
			}),
		},
		"null config (destroy) gives the prior state": {
			groupSchema,
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("p")}),
			}),
			cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{
				"id":       cty.StringVal("i-1"),
				"settings": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("p")}),
			}),
		},
		"map nested attribute matched by key": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"rules": {
						NestedType: &configschema.Object{
							Nesting: configschema.NestingMap,
							Attributes: map[string]*configschema.Attribute{
								"port": {Type: cty.Number, Required: true},
								"id":   {Type: cty.String, Computed: true},
							},
						},
						Optional: true,
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"rules": cty.MapVal(map[string]cty.Value{
					"a": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "id": cty.StringVal("r-a")}),
					"b": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "id": cty.StringVal("r-b")}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"rules": cty.MapVal(map[string]cty.Value{
					"b": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(8443), "id": cty.NullVal(cty.String)}),
					"c": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "id": cty.NullVal(cty.String)}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"rules": cty.MapVal(map[string]cty.Value{
					"b": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(8443), "id": cty.StringVal("r-b")}),
					"c": cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "id": cty.NullVal(cty.String)}),
				}),
			}),
		},
		"set nested attribute: computed attributes follow their element": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"disks": {
						NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: diskAttrs},
						Optional:   true,
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"disks": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(10), "id": cty.StringVal("d-10")}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.StringVal("d-20")}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disks": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.NullVal(cty.String)}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disks": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.StringVal("d-20")}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
		},
		"set block: computed attributes follow their element": {
			&configschema.Block{
				BlockTypes: map[string]*configschema.NestedBlock{
					"disk": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: diskAttrs}},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(10), "id": cty.StringVal("d-10")}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.StringVal("d-20")}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.NullVal(cty.String)}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.StringVal("d-20")}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
		},
		"list block: extra configured blocks are taken as they are": {
			&configschema.Block{
				BlockTypes: map[string]*configschema.NestedBlock{
					"disk": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: diskAttrs}},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.ListVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(10), "id": cty.StringVal("d-0")}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.ListVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.NullVal(cty.String)}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"disk": cty.ListVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20), "id": cty.StringVal("d-0")}),
					cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(30), "id": cty.NullVal(cty.String)}),
				}),
			}),
		},
		"optional+computed list nested attribute removed from config": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"opts": {
						NestedType: &configschema.Object{
							Nesting:    configschema.NestingList,
							Attributes: map[string]*configschema.Attribute{"name": {Type: cty.String, Optional: true}},
						},
						Optional: true,
						Computed: true,
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a")})}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"name": cty.String}))),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"name": cty.String}))),
			}),
		},
		"optional+computed list nested attribute of computed attributes is kept": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"opts": {
						NestedType: &configschema.Object{
							Nesting:    configschema.NestingList,
							Attributes: map[string]*configschema.Attribute{"name": {Type: cty.String, Optional: true, Computed: true}},
						},
						Optional: true,
						Computed: true,
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a")})}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"name": cty.String}))),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"opts": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a")})}),
			}),
		},
		"dynamic map block matched by label": {
			&configschema.Block{
				BlockTypes: map[string]*configschema.NestedBlock{
					"plugin": {
						Nesting: configschema.NestingMap,
						Block: configschema.Block{
							Attributes: map[string]*configschema.Attribute{
								"config": {Type: cty.DynamicPseudoType, Optional: true},
								"id":     {Type: cty.String, Computed: true},
							},
						},
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"plugin": cty.ObjectVal(map[string]cty.Value{
					"a": cty.ObjectVal(map[string]cty.Value{"config": cty.StringVal("x"), "id": cty.StringVal("p-a")}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"plugin": cty.ObjectVal(map[string]cty.Value{
					"a": cty.ObjectVal(map[string]cty.Value{"config": cty.StringVal("y"), "id": cty.NullVal(cty.String)}),
					"b": cty.ObjectVal(map[string]cty.Value{"config": cty.NumberIntVal(1), "id": cty.NullVal(cty.String)}),
				}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"plugin": cty.ObjectVal(map[string]cty.Value{
					"a": cty.ObjectVal(map[string]cty.Value{"config": cty.StringVal("y"), "id": cty.StringVal("p-a")}),
					"b": cty.ObjectVal(map[string]cty.Value{"config": cty.NumberIntVal(1), "id": cty.NullVal(cty.String)}),
				}),
			}),
		},
		"unknown configuration block stays unknown": {
			&configschema.Block{
				BlockTypes: map[string]*configschema.NestedBlock{
					"rule": {
						Nesting: configschema.NestingList,
						Block: configschema.Block{
							Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Optional: true}},
						},
					},
				},
			},
			cty.ObjectVal(map[string]cty.Value{
				"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"rule": cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"port": cty.Number}))),
			}),
			cty.ObjectVal(map[string]cty.Value{
				"rule": cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"port": cty.Number}))),
			}),
		},
		"dynamic attribute takes the configured type": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"value":          {Type: cty.DynamicPseudoType, Optional: true},
					"computed_value": {Type: cty.DynamicPseudoType, Computed: true},
				},
			},
			cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("1"), "computed_value": cty.NumberIntVal(1)}),
			cty.ObjectVal(map[string]cty.Value{"value": cty.NumberIntVal(1), "computed_value": cty.NullVal(cty.DynamicPseudoType)}),
			cty.ObjectVal(map[string]cty.Value{"value": cty.NumberIntVal(1), "computed_value": cty.NumberIntVal(1)}),
		},
		"refined unknown in config is kept": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"name": {Type: cty.String, Optional: true},
				},
			},
			cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"name": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("web-").NewValue()}),
			cty.ObjectVal(map[string]cty.Value{"name": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("web-").NewValue()}),
		},
	}
}

func TestAssertPlanValid(t *testing.T) {
	c := map[string]*configschema.Attribute{"c": {Type: cty.String, Optional: true}}
	blocks := &configschema.Block{
		BlockTypes: map[string]*configschema.NestedBlock{
			"l": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: c}},
			"s": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: c}},
			"m": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: c}},
			"g": {Nesting: configschema.NestingGroup, Block: configschema.Block{Attributes: c}},
		},
	}
	cObj := cty.Object(map[string]cty.Type{"c": cty.String})
	cVal := func(s string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"c": cty.StringVal(s)}) }
	noBlocks := cty.ObjectVal(map[string]cty.Value{
		"l": cty.ListValEmpty(cObj),
		"s": cty.SetValEmpty(cObj),
		"m": cty.MapValEmpty(cObj),
		"g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)}),
	})
	dynamicMap := &configschema.Block{
		BlockTypes: map[string]*configschema.NestedBlock{
			"dm": {
				Nesting: configschema.NestingMap,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{"c": {Type: cty.DynamicPseudoType, Optional: true}},
				},
			},
		},
	}
	nested := func(nesting configschema.NestingMode) *configschema.Block {
		return &configschema.Block{
			Attributes: map[string]*configschema.Attribute{
				"items": {
					NestedType: &configschema.Object{
						Nesting: nesting,
						Attributes: map[string]*configschema.Attribute{
							"v":  {Type: cty.String, Optional: true},
							"id": {Type: cty.String, Computed: true},
						},
					},
					Optional: true,
				},
			},
		}
	}
	item := func(v string, id cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal(v), "id": id})
	}
	itemTy := cty.Object(map[string]cty.Type{"v": cty.String, "id": cty.String})
	attrs := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name":     {Type: cty.String, Optional: true},
			"secret":   {Type: cty.String, Optional: true, Sensitive: true},
			"password": {Type: cty.String, Optional: true, WriteOnly: true},
			"value":    {Type: cty.DynamicPseudoType, Optional: true},
			"size":     {Type: cty.Number, Optional: true},
		},
	}
	attrVals := func(name, secret, password, value, size cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": name, "secret": secret, "password": password, "value": value, "size": size})
	}
	ns := cty.NullVal(cty.String)

	tests := map[string]struct {
		Schema   *configschema.Block
		Prior    cty.Value
		Config   cty.Value
		Planned  cty.Value
		WantErrs []string
	}{
		"null set of blocks": {
			blocks, cty.NullVal(cty.DynamicPseudoType), noBlocks,
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.NullVal(cty.Set(cObj)), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.s: attribute representing a set of nested blocks must be empty to indicate no blocks, not null`},
		},
		"null group block": {
			blocks, cty.NullVal(cty.DynamicPseudoType), noBlocks,
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.NullVal(cObj)}),
			[]string{`.g: attribute representing a group of nested blocks must be empty to indicate no blocks, not null`},
		},
		"group block changed": {
			blocks, cty.NullVal(cty.DynamicPseudoType), noBlocks,
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cVal("x")}),
			[]string{`.g.c: planned value cty.StringVal("x") for a non-computed attribute`},
		},
		"unknown dynamic block changed": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.UnknownVal(cty.List(cObj)), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cVal("x")}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.l: planned value cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"c":cty.StringVal("x")})}) for unknown dynamic block`},
		},
		"unknown block planned for configured blocks": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cVal("x")}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.UnknownVal(cty.List(cObj)), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.l: planned unknown value for non-computed block`},
		},
		"list block count": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cVal("x")}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cVal("x"), cVal("y")}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.l: block count in plan (2) disagrees with count in config (1)`},
		},
		"unknown element of a list block": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cVal("x")}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.UnknownVal(cObj)}), "s": cty.SetValEmpty(cObj), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.l[0]: element representing nested block must not be unknown itself; set nested attribute values to unknown instead`},
		},
		"unknown element of a set block": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetVal([]cty.Value{cVal("x")}), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetVal([]cty.Value{cty.UnknownVal(cObj)}), "m": cty.MapValEmpty(cObj), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.s[(not yet known)]: element representing nested block must not be unknown itself; set nested attribute values to unknown instead`},
		},
		"map block keys differ": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapVal(map[string]cty.Value{"a": cVal("x")}), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapVal(map[string]cty.Value{"b": cVal("x")}), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{
				`.m["b"]: block key "b" from plan is not present in config`,
				`.m: block key "a" from config is not present in plan`,
			},
		},
		"map block count": {
			blocks, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapVal(map[string]cty.Value{"a": cVal("x")}), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(cObj), "s": cty.SetValEmpty(cObj), "m": cty.MapVal(map[string]cty.Value{"a": cVal("x"), "b": cVal("y")}), "g": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.String)})}),
			[]string{`.m: block count in plan (2) disagrees with count in config (1)`},
		},
		"dynamic map block keys differ": {
			dynamicMap, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"a": cVal("x")})}),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"b": cVal("x")})}),
			[]string{
				`.dm: block key "b" from plan is not present in config`,
				`.dm: block key "a" from config is not present in plan`,
			},
		},
		"unknown element of a dynamic map block": {
			dynamicMap, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"a": cVal("x")})}),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cObj)})}),
			[]string{`.dm.a: element representing nested block must not be unknown itself; set nested attribute values to unknown instead`},
		},
		"dynamic map block attribute changed": {
			dynamicMap, cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"a": cVal("x")})}),
			cty.ObjectVal(map[string]cty.Value{"dm": cty.ObjectVal(map[string]cty.Value{"a": cVal("y")})}),
			[]string{`.dm.a.c: planned value cty.StringVal("y") does not match config value cty.StringVal("x")`},
		},
		"write-only attribute planned": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, cty.StringVal("hunter2"), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(ns, ns, cty.StringVal("hunter3"), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			[]string{`.password: planned value for write-only attribute is not null`},
		},
		"write-only attribute equal to config passes this check": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, cty.StringVal("hunter2"), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(ns, ns, cty.StringVal("hunter2"), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			[]string{},
		},
		"sensitive attribute set by the provider": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(ns, cty.StringVal("abc"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			[]string{`.secret: sensitive planned value for a non-computed attribute`},
		},
		"config and prior mismatch": {
			attrs,
			attrVals(cty.StringVal("a"), cty.StringVal("s1"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(cty.StringVal("b"), cty.StringVal("s2"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(cty.StringVal("c"), cty.StringVal("s3"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			[]string{
				`.name: planned value cty.StringVal("c") does not match config value cty.StringVal("b") nor prior value cty.StringVal("a")`,
				`.secret: sensitive planned value does not match config value nor prior value`,
			},
		},
		"prior value kept in place of an equivalent configured one": {
			attrs,
			attrVals(cty.StringVal("a"), cty.StringVal("s1"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(cty.StringVal("A"), cty.StringVal("S1"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			attrVals(cty.StringVal("a"), cty.StringVal("s1"), ns, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Number)),
			[]string{},
		},
		"dynamic attribute planned with another type": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, ns, cty.StringVal("1"), cty.NullVal(cty.Number)),
			attrVals(ns, ns, ns, cty.NumberIntVal(1), cty.NullVal(cty.Number)),
			[]string{`.value: planned value cty.NumberIntVal(1) does not match config value cty.StringVal("1")`},
		},
		"numbers compare by value": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, ns, cty.NullVal(cty.DynamicPseudoType), cty.NumberIntVal(10)),
			attrVals(ns, ns, ns, cty.NullVal(cty.DynamicPseudoType), cty.MustParseNumberVal("10.0")),
			[]string{},
		},
		"a large number in a message": {
			attrs, cty.NullVal(cty.DynamicPseudoType),
			attrVals(ns, ns, ns, cty.NullVal(cty.DynamicPseudoType), cty.NumberIntVal(1000000)),
			attrVals(ns, ns, ns, cty.NullVal(cty.DynamicPseudoType), cty.MustParseNumberVal("1234567.5")),
			[]string{`.size: planned value cty.NumberFloatVal(1.2345675e+06) does not match config value cty.NumberIntVal(1e+06)`},
		},
		"planned unknown for a configured nested object": {
			&configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"obj": {
						NestedType: &configschema.Object{
							Nesting:    configschema.NestingSingle,
							Attributes: map[string]*configschema.Attribute{"a": {Type: cty.String, Optional: true}},
						},
						Optional: true,
					},
				},
			},
			cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})}),
			cty.ObjectVal(map[string]cty.Value{"obj": cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String}))}),
			[]string{`.obj: planned unknown for configured value`},
		},
		"nested list count": {
			nested(configschema.NestingList), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.ListVal([]cty.Value{item("x", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.ListVal([]cty.Value{item("x", cty.UnknownVal(cty.String)), item("y", cty.UnknownVal(cty.String))})}),
			[]string{`.items: count in plan (cty.NumberIntVal(2)) disagrees with count in config (cty.NumberIntVal(1))`},
		},
		"nested list count against an unknown config": {
			nested(configschema.NestingList), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.UnknownVal(cty.List(itemTy))}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.ListVal([]cty.Value{item("x", cty.UnknownVal(cty.String))})}),
			[]string{`.items: count in plan (cty.NumberIntVal(1)) disagrees with count in config (cty.UnknownVal(cty.Number).Refine().NotNull().NumberLowerBound(cty.NumberIntVal(0), true).NumberUpperBound(cty.NumberIntVal(9.223372036854775807e+18), true).NewValue())`},
		},
		"nested list with computed attributes": {
			nested(configschema.NestingList), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.ListVal([]cty.Value{item("x", ns), item("y", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.ListVal([]cty.Value{item("x", cty.UnknownVal(cty.String)), item("z", cty.StringVal("id-1"))})}),
			[]string{`.items[1].v: planned value cty.StringVal("z") does not match config value cty.StringVal("y")`},
		},
		"nested map keys differ": {
			nested(configschema.NestingMap), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.MapVal(map[string]cty.Value{"a": item("1", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.MapVal(map[string]cty.Value{"b": item("1", ns)})}),
			[]string{
				`.items: map key "b" from plan is not present in config`,
				`.items: map key "a" from config is not present in plan`,
			},
		},
		"nested map element named as an attribute": {
			nested(configschema.NestingMap), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.MapVal(map[string]cty.Value{"a": item("1", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.MapVal(map[string]cty.Value{"a": item("2", ns)})}),
			[]string{`.items.a.v: planned value cty.StringVal("2") does not match config value cty.StringVal("1")`},
		},
		"nested set of objects with computed attributes": {
			nested(configschema.NestingSet), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.SetVal([]cty.Value{item("a", ns), item("b", ns), item("c", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.SetVal([]cty.Value{item("a", cty.UnknownVal(cty.String)), item("b", cty.UnknownVal(cty.String)), item("c", cty.UnknownVal(cty.String))})}),
			[]string{},
		},
		"nested set with fewer elements than config": {
			nested(configschema.NestingSet), cty.NullVal(cty.DynamicPseudoType),
			cty.ObjectVal(map[string]cty.Value{"items": cty.SetVal([]cty.Value{item("a", ns), item("b", ns), item("c", ns)})}),
			cty.ObjectVal(map[string]cty.Value{"items": cty.SetVal([]cty.Value{item("a", cty.UnknownVal(cty.String)), item("b", cty.UnknownVal(cty.String))})}),
			[]string{`.items: count in plan (cty.UnknownVal(cty.Number).Refine().NotNull().NumberLowerBound(cty.NumberIntVal(1), true).NumberUpperBound(cty.NumberIntVal(2), true).NewValue()) disagrees with count in config (cty.NumberIntVal(3))`},
		},
	}
}

func TestAssertObjectCompatible(t *testing.T) {
	scalars := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name":   {Type: cty.String, Optional: true},
			"size":   {Type: cty.Number, Optional: true, Computed: true},
			"ports":  {Type: cty.List(cty.Number), Optional: true, Computed: true},
			"zones":  {Type: cty.Set(cty.String), Optional: true},
			"config": {Type: cty.DynamicPseudoType, Optional: true},
		},
	}
	dyn := cty.NullVal(cty.DynamicPseudoType)
	nn := cty.NullVal(cty.Number)
	ns := cty.NullVal(cty.String)
	nl := cty.NullVal(cty.List(cty.Number))
	nz := cty.NullVal(cty.Set(cty.String))
	row := func(name, size, ports, zones, config cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": name, "size": size, "ports": ports, "zones": zones, "config": config})
	}
	blocks := &configschema.Block{
		BlockTypes: map[string]*configschema.NestedBlock{
			"single": {
				Nesting: configschema.NestingSingle,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{"a": {Type: cty.String, Optional: true, Sensitive: true}},
				},
			},
			"vol": {
				Nesting: configschema.NestingMap,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{"size": {Type: cty.Number, Optional: true}},
				},
			},
			"rule": {
				Nesting: configschema.NestingSet,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Optional: true, Computed: true}},
				},
			},
		},
	}
	aTy := cty.Object(map[string]cty.Type{"a": cty.String})
	sizeTy := cty.Object(map[string]cty.Type{"size": cty.Number})
	portTy := cty.Object(map[string]cty.Type{"port": cty.Number})
	size := func(n int) cty.Value { return cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(n)}) }
	port := func(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"port": v}) }
	blockRow := func(single, vol, rule cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"single": single, "vol": vol, "rule": rule})
	}
	dynamicMap := &configschema.Block{
		BlockTypes: map[string]*configschema.NestedBlock{
			"dyn": {
				Nesting: configschema.NestingMap,
				Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}},
				},
			},
		},
	}
	v := func(s string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal(s)}) }

	tests := map[string]struct {
		Schema   *configschema.Block
		Planned  cty.Value
		Actual   cty.Value
		WantErrs []string
	}{
		"root object appeared": {
			scalars, cty.NullVal(cty.DynamicPseudoType), row(ns, nn, nl, nz, dyn),
			[]string{`Root object was absent, but now present`},
		},
		"root object disappeared": {
			scalars, row(ns, nn, nl, nz, dyn), cty.NullVal(cty.DynamicPseudoType),
			[]string{`Root object was present, but now absent`},
		},
		"number changed": {
			scalars, row(ns, cty.NumberIntVal(10), nl, nz, dyn), row(ns, cty.NumberIntVal(11), nl, nz, dyn),
			[]string{`.size: was cty.NumberIntVal(10), but now cty.NumberIntVal(11)`},
		},
		"numbers compare by value": {
			scalars, row(ns, cty.NumberIntVal(10), nl, nz, dyn), row(ns, cty.MustParseNumberVal("10.0"), nl, nz, dyn),
			[]string{},
		},
		"numbers as Go prints them": {
			scalars, row(ns, cty.NumberFloatVal(1.5), nl, nz, dyn), row(ns, cty.MustParseNumberVal("0.1"), nl, nz, dyn),
			[]string{`.size: was cty.NumberFloatVal(1.5), but now cty.MustParseNumberVal("0.1")`},
		},
		"large numbers as Go prints them": {
			scalars, row(ns, cty.NumberIntVal(1000000), nl, nz, dyn), row(ns, cty.NumberIntVal(20000000), nl, nz, dyn),
			[]string{`.size: was cty.NumberIntVal(1e+06), but now cty.NumberIntVal(2e+07)`},
		},
		"became null": {
			scalars, row(cty.StringVal("a"), nn, nl, nz, dyn), row(ns, nn, nl, nz, dyn),
			[]string{`.name: was cty.StringVal("a"), but now null`},
		},
		"became non-null": {
			scalars, row(ns, nn, nl, nz, dyn), row(cty.StringVal("a"), nn, nl, nz, dyn),
			[]string{`.name: was null, but now cty.StringVal("a")`},
		},
		"became unknown": {
			scalars, row(cty.StringVal("a"), nn, nl, nz, dyn), row(cty.UnknownVal(cty.String), nn, nl, nz, dyn),
			[]string{`.name: was known, but now unknown`},
		},
		"unknown number within its bounds": {
			scalars,
			row(ns, cty.UnknownVal(cty.Number).Refine().NumberRangeInclusive(cty.NumberIntVal(1), cty.NumberIntVal(10)).NewValue(), nl, nz, dyn),
			row(ns, cty.NumberIntVal(10), nl, nz, dyn),
			[]string{},
		},
		"unknown number beyond its bounds": {
			scalars,
			row(ns, cty.UnknownVal(cty.Number).Refine().NumberRangeInclusive(cty.NumberIntVal(1), cty.NumberIntVal(10)).NewValue(), nl, nz, dyn),
			row(ns, cty.NumberIntVal(11), nl, nz, dyn),
			[]string{`.size: final value cty.NumberIntVal(11) does not conform to planning placeholder cty.UnknownVal(cty.Number).Refine().NumberLowerBound(cty.NumberIntVal(1), true).NumberUpperBound(cty.NumberIntVal(10), true).NewValue()`},
		},
		"unknown number on its exclusive bound": {
			scalars,
			row(ns, cty.UnknownVal(cty.Number).Refine().NotNull().NumberRangeLowerBound(cty.NumberIntVal(0), false).NewValue(), nl, nz, dyn),
			row(ns, cty.NumberIntVal(0), nl, nz, dyn),
			[]string{`.size: final value cty.NumberIntVal(0) does not conform to planning placeholder cty.UnknownVal(cty.Number).Refine().NotNull().NumberLowerBound(cty.NumberIntVal(0), false).NewValue()`},
		},
		"unknown list longer than its bound": {
			scalars,
			row(ns, nn, cty.UnknownVal(cty.List(cty.Number)).Refine().CollectionLengthUpperBound(2).NewValue(), nz, dyn),
			row(ns, nn, cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2), cty.NumberIntVal(3)}), nz, dyn),
			[]string{`.ports: final value cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2), cty.NumberIntVal(3)}) does not conform to planning placeholder cty.UnknownVal(cty.List(cty.Number)).Refine().CollectionLengthUpperBound(2).NewValue()`},
		},
		"unknown list within its bounds": {
			scalars,
			row(ns, nn, cty.UnknownVal(cty.List(cty.Number)).Refine().NotNull().CollectionLengthLowerBound(1).CollectionLengthUpperBound(2).NewValue(), nz, dyn),
			row(ns, nn, cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}), nz, dyn),
			[]string{},
		},
		"list element vanished": {
			scalars,
			row(ns, nn, cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}), nz, dyn),
			row(ns, nn, cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), nz, dyn),
			[]string{`.ports: element 1 has vanished`},
		},
		"set element lost": {
			scalars,
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), dyn),
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("c")}), dyn),
			[]string{`.zones: planned set element cty.StringVal("b") does not correlate with any element in actual`},
		},
		"set with an unknown element": {
			scalars,
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), dyn),
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), dyn),
			[]string{},
		},
		"set with an unknown element grew": {
			scalars,
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), dyn),
			row(ns, nn, nl, cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}), dyn),
			[]string{`.zones: length changed from 2 to 3`},
		},
		"dynamic attribute changed type": {
			scalars, row(ns, nn, nl, nz, cty.StringVal("1")), row(ns, nn, nl, nz, cty.NumberIntVal(1)),
			[]string{`.config: wrong final value type: string required, but have number`},
		},
		"dynamic attribute: tuple for a list": {
			scalars,
			row(ns, nn, nl, nz, cty.ListVal([]cty.Value{cty.StringVal("a")})),
			row(ns, nn, nl, nz, cty.TupleVal([]cty.Value{cty.StringVal("a")})),
			[]string{`.config: wrong final value type: all elements must be string`},
		},
		"dynamic attribute: object with an extra attribute": {
			scalars,
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})),
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("y")})),
			[]string{`.config: wrong final value type: incorrect object attributes`},
		},
		"dynamic attribute: object missing attributes": {
			scalars,
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")})),
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"c": cty.StringVal("3")})),
			[]string{`.config: wrong final value type: attributes "a" and "b" are required`},
		},
		"dynamic attribute value changed": {
			scalars,
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})),
			row(ns, nn, nl, nz, cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("y")})),
			[]string{`.config.a: was cty.StringVal("x"), but now cty.StringVal("y")`},
		},
		"single block appeared": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			blockRow(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			[]string{`.single: was absent, but now present`},
		},
		"unknown single block may become absent": {
			blocks,
			blockRow(cty.UnknownVal(aTy), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			[]string{},
		},
		"sensitive attribute in a block": {
			blocks,
			blockRow(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			blockRow(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("y")}), cty.MapValEmpty(sizeTy), cty.SetValEmpty(portTy)),
			[]string{`.single.a: inconsistent values for sensitive attribute`},
		},
		"map block count changed": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapVal(map[string]cty.Value{"a": size(1)}), cty.SetValEmpty(portTy)),
			blockRow(cty.NullVal(aTy), cty.MapVal(map[string]cty.Value{"a": size(1), "b": size(2)}), cty.SetValEmpty(portTy)),
			[]string{`.vol: block count changed from 1 to 2`},
		},
		"map block attribute changed": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapVal(map[string]cty.Value{"a": size(1)}), cty.SetValEmpty(portTy)),
			blockRow(cty.NullVal(aTy), cty.MapVal(map[string]cty.Value{"a": size(2)}), cty.SetValEmpty(portTy)),
			[]string{`.vol["a"].size: was cty.NumberIntVal(1), but now cty.NumberIntVal(2)`},
		},
		"set block grew": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.NumberIntVal(1)), port(cty.UnknownVal(cty.Number))})),
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.NumberIntVal(1)), port(cty.NumberIntVal(2)), port(cty.NumberIntVal(3))})),
			[]string{`.rule: block set length changed from 2 to 3`},
		},
		"set block element lost": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.NumberIntVal(1))})),
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.NumberIntVal(2))})),
			[]string{`.rule: planned set element cty.ObjectVal(map[string]cty.Value{"port":cty.NumberIntVal(1)}) does not correlate with any element in actual`},
		},
		"set block of computed attributes": {
			blocks,
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.UnknownVal(cty.Number)), port(cty.NumberIntVal(8))})),
			blockRow(cty.NullVal(aTy), cty.MapValEmpty(sizeTy), cty.SetVal([]cty.Value{port(cty.NumberIntVal(8))})),
			[]string{},
		},
		"dynamic map block keys changed": {
			dynamicMap,
			cty.ObjectVal(map[string]cty.Value{"dyn": cty.ObjectVal(map[string]cty.Value{"a": v("x")})}),
			cty.ObjectVal(map[string]cty.Value{"dyn": cty.ObjectVal(map[string]cty.Value{"b": v("x")})}),
			[]string{`.dyn: block key "a" has vanished`, `.dyn: new block key "b" has appeared`},
		},
		"dynamic map block attribute changed": {
			dynamicMap,
			cty.ObjectVal(map[string]cty.Value{"dyn": cty.ObjectVal(map[string]cty.Value{"a": v("x")})}),
			cty.ObjectVal(map[string]cty.Value{"dyn": cty.ObjectVal(map[string]cty.Value{"a": v("y")})}),
			[]string{`.dyn.a.v: was cty.StringVal("x"), but now cty.StringVal("y")`},
		},
	}
}
