package main

import (
	"math"
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

var (
	str_    = cty.StringVal
	num     = cty.NumberIntVal
	flt     = cty.NumberFloatVal
	list    = cty.ListVal
	set     = cty.SetVal
	tuple   = cty.TupleVal
	object  = cty.ObjectVal
	mapv    = cty.MapVal
	unknown = cty.UnknownVal
	null    = cty.NullVal
	String  = cty.String
	Number  = cty.Number
	Bool    = cty.Bool
	Dynamic = cty.DynamicPseudoType
)

func vals(vs ...cty.Value) []cty.Value { return vs }

func attrs(kv ...interface{}) map[string]cty.Value {
	m := map[string]cty.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(cty.Value)
	}
	return m
}

func attrTypes(kv ...interface{}) map[string]cty.Type {
	m := map[string]cty.Type{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(cty.Type)
	}
	return m
}

func obj(kv ...interface{}) cty.Value { return object(attrs(kv...)) }

func objT(kv ...interface{}) cty.Type { return cty.Object(attrTypes(kv...)) }

// optObjT is an object type whose attributes named in opt are optional.
func optObjT(opt []string, kv ...interface{}) cty.Type {
	return cty.ObjectWithOptionalAttrs(attrTypes(kv...), opt)
}

func mapOf(kv ...interface{}) cty.Value { return mapv(attrs(kv...)) }

func tupT(ts ...cty.Type) cty.Type { return cty.Tuple(ts) }

func num512(text string) cty.Value { return cty.MustParseNumberVal(text) }

func bigFloat(text string) cty.Value {
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return cty.NumberVal(f)
}

func commonCases() []convCase {
	var cs []convCase
	add := func(name string, in cty.Value, to cty.Type) {
		cs = append(cs, convCase{name, in, to})
	}

	// ---- primitive: number and bool to string (safe) ----
	add("number-to-string-int", num(42), String)
	add("number-to-string-negative", num(-7), String)
	add("number-to-string-zero", num(0), String)
	add("number-to-string-max-int64", num(math.MaxInt64), String)
	add("number-to-string-min-int64", num(math.MinInt64), String)
	add("number-to-string-float", flt(0.1), String)
	add("number-to-string-float-third", flt(1.0/3.0), String)
	add("number-to-string-float-large", flt(1e21), String)
	add("number-to-string-float-small", flt(1.5e-7), String)
	add("number-to-string-float-integer", flt(3.0), String)
	add("number-to-string-float-max", flt(math.MaxFloat64), String)
	add("number-to-string-float-subnormal", flt(5e-324), String)
	add("number-to-string-decimal", num512("12.50"), String)
	add("number-to-string-decimal-long", num512("123456789012345678901234567890.0625"), String)
	add("number-to-string-decimal-exponent", num512("1e30"), String)
	add("number-to-string-decimal-tiny", num512("1e-30"), String)
	add("number-to-string-inf", cty.PositiveInfinity, String)
	add("number-to-string-negative-inf", cty.NegativeInfinity, String)
	add("bool-true-to-string", cty.True, String)
	add("bool-false-to-string", cty.False, String)

	// ---- primitive: string to number and bool (unsafe) ----
	for _, t := range []struct{ name, text string }{
		{"int", "12"}, {"negative", "-12"}, {"plus", "+7"}, {"decimal", "12.50"},
		{"leading-zeros", "007"}, {"exponent", "1e3"}, {"exponent-upper", "1E-2"},
		{"point-first", ".5"}, {"point-last", "5."}, {"binary-exponent", "1p4"},
		{"inf", "Inf"}, {"negative-inf", "-inf"}, {"long", "123456789012345678901234567890.5"},
		{"hex", "0x10"}, {"space", " 1"}, {"trailing-space", "1 "}, {"empty", ""},
		{"nan", "NaN"}, {"underscore", "1_000"}, {"word", "twelve"}, {"comma", "1,5"},
		{"arabic-digit", "\u0663"}, {"infinity-word", "Infinity"}, {"sign-only", "-"},
		{"exponent-only", "e5"},
	} {
		add("string-to-number-"+t.name, str_(t.text), Number)
	}
	for _, t := range []struct{ name, text string }{
		{"true", "true"}, {"false", "false"}, {"one", "1"}, {"zero", "0"},
		{"title-true", "True"}, {"upper-false", "FALSE"}, {"yes", "yes"}, {"empty", ""},
		{"two", "2"}, {"padded", " true"},
	} {
		add("string-to-bool-"+t.name, str_(t.text), Bool)
	}
	add("number-to-bool", num(1), Bool)
	add("bool-to-number", cty.True, Number)
	add("string-to-string", str_("a"), String)
	add("number-to-number", flt(0.5), Number)
	add("bool-to-bool", cty.False, Bool)

	// ---- nulls and unknowns ----
	add("null-string-to-number", null(String), Number)
	add("null-number-to-string", null(Number), String)
	add("null-string-to-bool", null(String), Bool)
	add("null-string-to-list", null(String), cty.List(String))
	add("null-list-to-set", null(cty.List(String)), cty.Set(String))
	add("null-list-to-set-number", null(cty.List(String)), cty.Set(Number))
	add("null-tuple-to-list-dynamic", null(tupT(String, Number)), cty.List(Dynamic))
	add("null-object-to-map-dynamic", null(objT("a", String, "b", Bool)), cty.Map(Dynamic))
	add("null-object-to-optional", null(objT("a", String)), optObjT([]string{"b"}, "a", String, "b", Number))
	add("null-dynamic-to-string", null(Dynamic), String)
	add("null-dynamic-to-list", null(Dynamic), cty.List(String))
	add("null-dynamic-to-optional-object", null(Dynamic), optObjT([]string{"b"}, "a", String, "b", Number))
	add("null-string-to-dynamic", null(String), Dynamic)
	add("unknown-string-to-number", unknown(String), Number)
	add("unknown-number-to-string", unknown(Number), String)
	add("unknown-string-to-list", unknown(String), cty.List(String))
	add("unknown-list-to-set", unknown(cty.List(String)), cty.Set(String))
	add("unknown-set-to-list-number", unknown(cty.Set(String)), cty.List(Number))
	add("unknown-object-to-object", unknown(objT("a", String, "b", Number)), objT("a", String))
	add("unknown-object-to-optional", unknown(objT("a", String)), optObjT([]string{"b"}, "a", String, "b", Number))
	add("unknown-map-to-object", unknown(cty.Map(String)), objT("a", Number))
	add("unknown-string-to-dynamic", unknown(String), Dynamic)
	add("dynamic-unknown-to-string", cty.DynamicVal, String)
	add("dynamic-unknown-to-list", cty.DynamicVal, cty.List(String))
	add("dynamic-unknown-to-object", cty.DynamicVal, optObjT([]string{"b"}, "a", String, "b", Number))
	add("dynamic-unknown-to-dynamic", cty.DynamicVal, Dynamic)
	add("null-element-list-to-set", list(vals(null(String), str_("a"))), cty.Set(String))
	add("null-element-list-to-set-number", list(vals(null(String), str_("1"))), cty.Set(Number))
	add("unknown-element-list-to-set", list(vals(unknown(String), str_("a"), unknown(String))), cty.Set(String))
	add("unknown-element-list-to-list-number", list(vals(unknown(String), str_("1"))), cty.List(Number))

	// ---- to and from dynamic ----
	add("string-to-dynamic", str_("a"), Dynamic)
	add("list-to-dynamic", list(vals(str_("a"))), Dynamic)
	add("object-to-dynamic", obj("a", str_("x"), "b", null(Number)), Dynamic)
	add("list-to-list-dynamic", list(vals(str_("a"), str_("b"))), cty.List(Dynamic))
	add("set-to-list-dynamic", set(vals(num(2), num(1))), cty.List(Dynamic))
	add("list-to-set-dynamic", list(vals(str_("b"), str_("a"), str_("b"))), cty.Set(Dynamic))
	add("map-to-map-dynamic", mapOf("a", cty.True), cty.Map(Dynamic))
	add("empty-set-to-list-dynamic", cty.SetValEmpty(Number), cty.List(Dynamic))
	add("empty-list-to-set-dynamic", cty.ListValEmpty(String), cty.Set(Dynamic))
	add("empty-map-to-map-dynamic", cty.MapValEmpty(Bool), cty.Map(Dynamic))
	add("empty-list-dynamic-to-list-string", cty.ListValEmpty(Dynamic), cty.List(String))
	add("empty-list-dynamic-to-set-string", cty.ListValEmpty(Dynamic), cty.Set(String))
	add("list-of-dynamic-unknowns-to-set-string", list(vals(cty.DynamicVal, cty.DynamicVal)), cty.Set(String))
	add("list-of-dynamic-unknowns-to-list-string", list(vals(cty.DynamicVal)), cty.List(String))
	add("map-of-dynamic-unknown-to-map-string", mapOf("a", cty.DynamicVal), cty.Map(String))
	add("list-mixed-dynamic-unknown-to-set", list(vals(cty.DynamicVal, str_("a"))), cty.Set(String))
	add("tuple-to-list-dynamic-same", tuple(vals(str_("a"), str_("b"))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-string-number", tuple(vals(str_("a"), num(1))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-number-bool-string", tuple(vals(num(1), cty.True, str_("x"))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-number-bool", tuple(vals(num(1), cty.True)), cty.List(Dynamic))
	add("tuple-to-list-dynamic-lists", tuple(vals(list(vals(str_("a"))), list(vals(num(1))))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-list-and-set", tuple(vals(list(vals(str_("a"))), set(vals(str_("b"))))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-list-and-tuple", tuple(vals(list(vals(str_("a"))), tuple(vals(num(1), str_("b"))))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-objects-same-attrs", tuple(vals(obj("a", str_("x")), obj("a", num(1)))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-objects-other-attrs", tuple(vals(obj("a", str_("x")), obj("b", num(1)))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-object-and-map", tuple(vals(obj("a", str_("x")), mapOf("b", num(1)))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-objects-and-lists", tuple(vals(obj("a", str_("x")), list(vals(str_("y"))))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-with-null", tuple(vals(null(Number), str_("a"))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-with-dynamic-null", tuple(vals(null(Dynamic), str_("a"))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-with-dynamic-unknown", tuple(vals(cty.DynamicVal, num(3))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-all-dynamic", tuple(vals(cty.DynamicVal, null(Dynamic))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-with-unknown", tuple(vals(unknown(Number), str_("a"))), cty.List(Dynamic))
	add("tuple-to-list-dynamic-empty", cty.EmptyTupleVal, cty.List(Dynamic))
	add("tuple-to-list-of-list-dynamic", tuple(vals(list(vals(str_("a"))), list(vals(num(1))))), cty.List(cty.List(Dynamic)))
	add("tuple-to-list-of-list-dynamic-unifiable", tuple(vals(list(vals(str_("a"))), list(vals(cty.True)))), cty.List(cty.List(Dynamic)))
	add("tuple-to-list-of-list-dynamic-not-unifiable", tuple(vals(list(vals(str_("a"))), list(vals(list(vals(str_("b"))))))), cty.List(cty.List(Dynamic)))
	add("tuple-to-list-of-map-dynamic", tuple(vals(mapOf("a", num(1)), mapOf("b", str_("x")))), cty.List(cty.Map(Dynamic)))
	add("tuple-to-list-of-object-dynamic-attr", tuple(vals(obj("a", num(1)), obj("a", str_("x")))), cty.List(objT("a", Dynamic)))
	add("tuple-to-set-dynamic-same", tuple(vals(str_("a"), str_("a"))), cty.Set(Dynamic))
	add("tuple-to-set-dynamic-string-number", tuple(vals(num(1), str_("1"))), cty.Set(Dynamic))
	add("tuple-to-set-dynamic-number-bool", tuple(vals(num(1), cty.False)), cty.Set(Dynamic))
	add("tuple-to-set-dynamic-empty", cty.EmptyTupleVal, cty.Set(Dynamic))
	add("tuple-to-set-dynamic-all-dynamic", tuple(vals(cty.DynamicVal)), cty.Set(Dynamic))
	add("tuple-to-set-of-list-dynamic", tuple(vals(list(vals(str_("a"))), list(vals(num(1))))), cty.Set(cty.List(Dynamic)))
	add("object-to-map-dynamic-same", obj("a", str_("x"), "b", str_("y")), cty.Map(Dynamic))
	add("object-to-map-dynamic-string-number", obj("a", str_("x"), "b", num(2)), cty.Map(Dynamic))
	add("object-to-map-dynamic-number-bool", obj("a", num(1), "b", cty.True), cty.Map(Dynamic))
	add("object-to-map-dynamic-lists", obj("a", list(vals(str_("x"))), "b", list(vals(num(2)))), cty.Map(Dynamic))
	add("object-to-map-dynamic-objects", obj("a", obj("x", num(1)), "b", obj("x", str_("y"))), cty.Map(Dynamic))
	add("object-to-map-dynamic-empty", cty.EmptyObjectVal, cty.Map(Dynamic))
	add("object-to-map-dynamic-with-dynamic-null", obj("a", null(Dynamic), "b", str_("y")), cty.Map(Dynamic))
	add("object-to-map-of-list-dynamic", obj("a", list(vals(str_("x"))), "b", list(vals(num(2)))), cty.Map(cty.List(Dynamic)))
	add("object-to-map-of-list-dynamic-not-unifiable", obj("a", list(vals(str_("x"))), "b", list(vals(list(vals(num(2)))))), cty.Map(cty.List(Dynamic)))
	add("map-to-map-of-list-dynamic", mapOf("a", list(vals(str_("x"))), "b", cty.ListValEmpty(String)), cty.Map(cty.List(Dynamic)))
	add("object-dynamic-attribute", obj("a", num(1), "b", str_("x")), objT("a", Dynamic, "b", String))
	add("object-dynamic-null-attribute-to-string", obj("a", null(Dynamic)), objT("a", String))
	add("object-dynamic-unknown-attribute-to-list", obj("a", cty.DynamicVal), objT("a", cty.List(String)))
	add("tuple-dynamic-null-element-to-list", tuple(vals(null(Dynamic))), cty.List(String))
	add("tuple-to-tuple-dynamic", tuple(vals(num(1), str_("a"))), tupT(Dynamic, Number))

	// ---- list, set and tuple ----
	add("list-to-set", list(vals(str_("b"), str_("a"), str_("b"))), cty.Set(String))
	add("list-to-set-number-to-string", list(vals(num(10), num(9), num(10))), cty.Set(String))
	add("list-to-set-string-to-number-merges", list(vals(str_("1"), str_("01"), str_("1.0"))), cty.Set(Number))
	add("list-to-set-empty", cty.ListValEmpty(String), cty.Set(String))
	add("list-to-set-error", list(vals(str_("1"), str_("x"))), cty.Set(Number))
	add("set-to-list", set(vals(str_("b"), str_("a"))), cty.List(String))
	add("set-to-list-number", set(vals(num(10), num(9), num(100))), cty.List(Number))
	add("set-to-list-number-to-string", set(vals(num(10), num(9), num(100))), cty.List(String))
	add("set-to-list-empty", cty.SetValEmpty(String), cty.List(String))
	add("set-to-list-with-unknown", set(vals(str_("a"), unknown(String))), cty.List(String))
	add("set-to-list-with-unknown-converting", set(vals(str_("1"), unknown(String))), cty.List(Number))
	add("set-to-list-only-unknown", set(vals(unknown(String))), cty.List(Number))
	add("set-to-list-object-with-unknown", set(vals(obj("a", unknown(String)), obj("a", str_("x")))), cty.List(objT("a", String)))
	add("set-to-list-error", set(vals(str_("1"), str_("x"))), cty.List(Number))
	add("set-to-set", set(vals(num(1), num(10))), cty.Set(String))
	add("set-to-set-merges", set(vals(str_("1"), str_("01"))), cty.Set(Number))
	add("list-to-list", list(vals(num(1), num(2))), cty.List(String))
	add("list-to-list-error", list(vals(str_("1"), str_("2"), str_("x"))), cty.List(Number))
	add("list-to-list-bool-error", list(vals(str_("true"), str_("True"))), cty.List(Bool))
	add("list-of-lists-to-list-of-sets", list(vals(list(vals(str_("a"), str_("a"))), cty.ListValEmpty(String))), cty.List(cty.Set(String)))
	add("list-of-lists-error-path", list(vals(list(vals(str_("1"))), list(vals(str_("2"), str_("x"))))), cty.List(cty.List(Number)))
	add("tuple-to-list", tuple(vals(str_("a"), str_("b"))), cty.List(String))
	add("tuple-to-list-converting", tuple(vals(num(1), cty.True, str_("c"))), cty.List(String))
	add("tuple-to-list-error", tuple(vals(str_("1"), str_("x"))), cty.List(Number))
	add("tuple-to-list-empty", cty.EmptyTupleVal, cty.List(String))
	add("tuple-to-list-with-null", tuple(vals(null(Number), str_("a"))), cty.List(String))
	add("tuple-to-list-with-unknown", tuple(vals(unknown(Number), str_("a"))), cty.List(String))
	add("tuple-to-list-impossible", tuple(vals(str_("a"), list(vals(str_("b"))))), cty.List(String))
	add("tuple-to-list-impossible-bool", tuple(vals(cty.True)), cty.List(Number))
	add("tuple-to-set", tuple(vals(str_("b"), str_("a"), str_("b"))), cty.Set(String))
	add("tuple-to-set-converting", tuple(vals(num(1), str_("1"))), cty.Set(String))
	add("tuple-to-set-empty", cty.EmptyTupleVal, cty.Set(Number))
	add("tuple-to-set-with-null", tuple(vals(null(Number), num(1))), cty.Set(String))
	add("tuple-to-set-error", tuple(vals(str_("1"), str_("x"))), cty.Set(Number))
	add("tuple-to-tuple", tuple(vals(num(1), cty.True)), tupT(String, String))
	add("tuple-to-tuple-error", tuple(vals(str_("1"), str_("x"))), tupT(Number, Number))
	add("tuple-to-tuple-length", tuple(vals(num(1))), tupT(Number, Number))
	add("tuple-to-tuple-impossible", tuple(vals(num(1))), tupT(Bool))
	add("list-to-tuple", list(vals(str_("a"))), tupT(String))
	add("set-to-tuple", set(vals(str_("a"))), tupT(String))
	add("list-to-map", list(vals(str_("a"))), cty.Map(String))
	add("map-to-list", mapOf("a", str_("b")), cty.List(String))
	add("set-of-objects-to-list-optional", set(vals(obj("a", str_("x")), obj("a", str_("y")))), cty.List(optObjT([]string{"b"}, "a", String, "b", Number)))
	add("list-of-objects-to-set-optional", list(vals(obj("a", str_("x")), obj("a", str_("x")))), cty.Set(optObjT([]string{"b"}, "a", String, "b", Number)))

	// ---- map ----
	add("map-to-map", mapOf("a", num(1), "b", num(2)), cty.Map(String))
	add("map-to-map-error", mapOf("a", str_("1"), "b", str_("x"), "c", str_("y")), cty.Map(Number))
	add("map-to-map-empty", cty.MapValEmpty(Number), cty.Map(String))
	add("map-of-lists-to-map-of-sets", mapOf("a", list(vals(str_("x"), str_("x"))), "b", cty.ListValEmpty(String)), cty.Map(cty.Set(String)))
	add("map-of-objects-to-optional", mapOf("a", obj("x", str_("1")), "b", obj("x", str_("2"))), cty.Map(optObjT([]string{"y"}, "x", Number, "y", String)))
	add("map-of-dynamic-unknowns-to-map-of-list", mapOf("a", cty.DynamicVal), cty.Map(cty.List(String)))
	add("map-with-null-to-map", mapOf("a", null(Number), "b", num(1)), cty.Map(String))
	add("map-of-maps-to-map-of-maps", mapOf("a", mapOf("x", num(1))), cty.Map(cty.Map(String)))

	// ---- object and map ----
	add("object-to-map", obj("a", str_("x"), "b", str_("y")), cty.Map(String))
	add("object-to-map-converting", obj("a", num(1), "b", cty.True), cty.Map(String))
	add("object-to-map-error", obj("a", str_("1"), "b", str_("x")), cty.Map(Number))
	add("object-to-map-empty", cty.EmptyObjectVal, cty.Map(String))
	add("object-to-map-with-null", obj("a", null(Bool), "b", str_("y")), cty.Map(String))
	add("object-to-map-impossible", obj("a", str_("x"), "b", list(vals(str_("y")))), cty.Map(String))
	add("object-to-map-of-lists", obj("a", list(vals(num(1))), "b", tuple(vals(str_("y")))), cty.Map(cty.List(String)))
	add("object-to-map-of-objects-optional", obj("a", obj("x", num(1)), "b", obj("x", num(2), "y", str_("z"))), cty.Map(optObjT([]string{"y"}, "x", Number, "y", String)))
	add("map-to-object", mapOf("a", str_("1"), "b", str_("2")), objT("a", Number, "b", String))
	add("map-to-object-drops-keys", mapOf("a", str_("1"), "b", str_("2"), "c", str_("3")), objT("a", String))
	add("map-to-object-missing", mapOf("a", str_("1")), objT("a", String, "b", String))
	add("map-to-object-optional", mapOf("a", str_("1")), optObjT([]string{"b"}, "a", String, "b", String))
	add("map-to-object-optional-present", mapOf("a", str_("1"), "b", str_("2")), optObjT([]string{"b"}, "a", String, "b", Number))
	add("map-to-object-optional-incompatible-absent", mapOf("a", str_("1")), optObjT([]string{"c"}, "a", String, "c", objT("x", String)))
	add("map-to-object-optional-incompatible-present", mapOf("a", str_("1"), "c", str_("2")), optObjT([]string{"c"}, "a", String, "c", objT("x", String)))
	add("map-to-object-required-incompatible", mapOf("a", str_("1")), objT("a", cty.List(String)))
	add("map-to-object-error", mapOf("a", str_("x")), objT("a", Number))
	add("map-to-object-with-null", mapOf("a", null(String), "b", str_("2")), objT("a", Number, "b", Number))
	add("map-to-object-empty", cty.MapValEmpty(String), objT())
	add("map-to-object-empty-optional", cty.MapValEmpty(String), optObjT([]string{"a"}, "a", String))
	add("map-to-object-optional-nested-type", mapOf("b", mapOf("x", str_("1"))), optObjT([]string{"a"}, "a", optObjT([]string{"y"}, "y", String), "b", objT("x", Number)))
	add("map-of-maps-to-object", mapOf("a", mapOf("x", str_("1"))), objT("a", objT("x", Number)))

	// ---- object to object ----
	add("object-same", obj("a", str_("x")), objT("a", String))
	add("object-drops-attributes", obj("a", str_("x"), "b", num(1), "c", cty.True), objT("b", Number))
	add("object-to-empty", obj("a", str_("x")), objT())
	add("object-converts-attribute", obj("a", num(1), "b", cty.True), objT("a", String, "b", String))
	add("object-attribute-error", obj("a", str_("x")), objT("a", Number))
	add("object-nested-attribute-error", obj("o", obj("p", list(vals(str_("1"), str_("x"))))), objT("o", objT("p", cty.List(Number))))
	add("object-missing-one", obj("a", str_("x")), objT("a", String, "b", String))
	add("object-missing-two", obj("c", str_("x")), objT("a", String, "b", String, "c", String))
	add("object-missing-three", cty.EmptyObjectVal, objT("a", String, "b", String, "c", String))
	add("object-missing-four", cty.EmptyObjectVal, objT("a", String, "b", String, "c", String, "d", String))
	add("object-attribute-impossible", obj("a", cty.True), objT("a", Number))
	add("object-attribute-impossible-list", obj("a", str_("x")), objT("a", cty.List(String)))
	add("object-nested-impossible", obj("o", obj("a", cty.True)), objT("o", objT("a", Number)))
	add("object-optional-absent", obj("a", str_("x")), optObjT([]string{"b"}, "a", String, "b", Number))
	add("object-optional-present", obj("a", str_("x"), "b", str_("2")), optObjT([]string{"b"}, "a", String, "b", Number))
	add("object-optional-null", obj("a", str_("x"), "b", null(String)), optObjT([]string{"b"}, "a", String, "b", Number))
	add("object-optional-all-absent", cty.EmptyObjectVal, optObjT([]string{"a", "b"}, "a", String, "b", cty.List(String)))
	add("object-optional-object-absent", cty.EmptyObjectVal, optObjT([]string{"o"}, "o", optObjT([]string{"x"}, "x", String)))
	add("object-optional-object-present", obj("o", cty.EmptyObjectVal), optObjT([]string{"o"}, "o", optObjT([]string{"x"}, "x", String)))
	add("object-optional-dynamic-absent", cty.EmptyObjectVal, optObjT([]string{"d"}, "d", Dynamic))
	add("object-optional-missing-required", obj("b", num(1)), optObjT([]string{"b"}, "a", String, "b", Number))
	add("object-optional-in-tuple", tuple(vals(obj("a", str_("x")), obj("a", str_("y"), "b", num(2)))), cty.List(optObjT([]string{"b"}, "a", String, "b", Number)))
	add("object-with-list-attribute-to-set", obj("a", list(vals(str_("x"), str_("x")))), objT("a", cty.Set(String)))
	add("object-null-attribute", obj("a", null(cty.List(String))), objT("a", cty.Set(String)))

	add("object-same-but-optional", obj("a", str_("x")), optObjT([]string{"a"}, "a", String))
	add("object-null-attribute-to-list-dynamic", obj("a", null(cty.List(String))), objT("a", cty.List(Dynamic)))
	add("object-unknown-attribute-to-map-dynamic", obj("a", unknown(String), "b", num(1)), cty.Map(Dynamic))
	add("tuple-to-tuple-nested-dynamic", tuple(vals(list(vals(str_("a"))))), tupT(cty.List(Dynamic)))
	add("list-of-lists-to-list-dynamic", list(vals(list(vals(str_("a"))), cty.ListValEmpty(String))), cty.List(Dynamic))
	add("map-empty-to-map-of-optional-object", cty.MapValEmpty(objT("a", String)), cty.Map(optObjT([]string{"b"}, "a", String, "b", Number)))
	add("unknown-map-to-object-optional-map", unknown(cty.Map(String)), optObjT([]string{"a"}, "a", cty.Map(String)))
	add("null-map-to-object-optional-map", null(cty.Map(String)), optObjT([]string{"a"}, "a", cty.Map(String)))
	add("object-missing-quoted-name", cty.EmptyObjectVal, objT("a\"b", String))
	add("object-missing-control-name", cty.EmptyObjectVal, objT("\x01é", String))
	add("map-to-map-error-quoted-key", mapOf("k\"1", str_("x")), cty.Map(Number))
	add("object-to-map-error-unicode-key", obj("é", str_("x")), cty.Map(Number))
	add("string-to-number-huge", str_("1e400"), Number)
	add("string-to-number-tiny", str_("-2.5e-300"), Number)

	// ---- more type mismatches (MismatchMessage) ----
	add("mismatch-string-to-list", str_("a"), cty.List(String))
	add("mismatch-list-to-string", list(vals(str_("a"))), String)
	add("mismatch-string-to-object", str_("a"), objT("a", String))
	add("mismatch-object-to-string", cty.EmptyObjectVal, String)
	add("mismatch-number-to-list-dynamic", num(1), cty.List(Dynamic))
	add("mismatch-number-to-map-dynamic", num(1), cty.Map(Dynamic))
	add("mismatch-map-to-list-dynamic", mapOf("a", str_("b")), cty.List(Dynamic))
	add("mismatch-list-to-map-dynamic", list(vals(str_("a"))), cty.Map(Dynamic))
	add("mismatch-list-element", list(vals(str_("a"))), cty.List(cty.List(String)))
	add("mismatch-set-element", set(vals(list(vals(str_("a"))))), cty.Set(String))
	add("mismatch-map-element", mapOf("a", str_("b")), cty.Map(cty.List(String)))
	add("mismatch-list-element-dynamic", list(vals(str_("a"))), cty.List(cty.List(Dynamic)))
	add("mismatch-object-to-list", obj("a", str_("x")), cty.List(String))
	add("mismatch-tuple-to-map", tuple(vals(str_("x"))), cty.Map(String))
	add("mismatch-tuple-to-object", tuple(vals(str_("x"))), objT("a", String))
	add("mismatch-object-to-tuple", obj("a", str_("x")), tupT(String))
	add("mismatch-map-to-tuple", mapOf("a", str_("x")), tupT(String))
	add("mismatch-bool-to-object", cty.True, objT())
	add("mismatch-list-of-object-attribute", list(vals(obj("a", cty.True))), cty.List(objT("a", Number)))
	add("mismatch-tuple-element-object", tuple(vals(obj("a", cty.True))), cty.List(objT("a", Number)))
	add("mismatch-object-element-list", obj("k", list(vals(cty.True))), cty.Map(cty.List(Number)))
	add("mismatch-tuple-to-set-dynamic", tuple(vals(num(1), cty.True)), cty.Set(Dynamic))
	add("mismatch-object-to-map-dynamic", obj("a", num(1), "b", cty.True), cty.Map(Dynamic))
	add("mismatch-tuple-to-list-dynamic", tuple(vals(num(1), cty.True)), cty.List(Dynamic))
	add("mismatch-list-to-tuple-dynamic", list(vals(str_("a"))), tupT(Dynamic))

	// ---- Marshal converts what does not conform ----
	add("marshal-number-as-string", num(12), String)
	add("marshal-list-as-set", list(vals(str_("b"), str_("a"))), cty.Set(String))
	add("marshal-tuple-as-list", tuple(vals(str_("a"), num(1))), cty.List(String))
	add("marshal-object-as-map", obj("a", str_("x")), cty.Map(String))
	add("marshal-object-missing-attribute", obj("a", str_("x")), objT("a", String, "b", String))
	add("marshal-big-number-as-string", bigFloat("1e400"), String)
	add("marshal-float-as-string", flt(2.5), String)

	return cs
}

func unifyCases() []unifyCase {
	var us []unifyCase
	add := func(name string, types ...cty.Type) {
		us = append(us, unifyCase{name, types})
	}
	add("unify-none")
	add("unify-one", String)
	add("unify-same", Number, Number)
	add("unify-string-number", Number, String)
	add("unify-number-bool", Number, Bool)
	add("unify-number-bool-string", Number, Bool, String)
	add("unify-bool-string", String, Bool)
	add("unify-dynamic-string", Dynamic, String)
	add("unify-dynamic-dynamic", Dynamic, Dynamic)
	add("unify-dynamic-only", Dynamic)
	add("unify-lists", cty.List(String), cty.List(Number))
	add("unify-lists-not", cty.List(Bool), cty.List(Number))
	add("unify-list-dynamic", cty.List(String), Dynamic)
	add("unify-sets", cty.Set(Number), cty.Set(String))
	add("unify-maps", cty.Map(Number), cty.Map(Bool), cty.Map(String))
	add("unify-list-set", cty.List(String), cty.Set(String))
	add("unify-set-list-unsafe", cty.Set(String), cty.List(Number))
	add("unify-list-tuple", cty.List(String), tupT(String, Number))
	add("unify-list-tuple-not", cty.List(Bool), tupT(Number))
	add("unify-tuples-same-length", tupT(String, Number), tupT(Number, Number))
	add("unify-tuples-other-length", tupT(String), tupT(String, Number))
	add("unify-tuples-not", tupT(Bool), tupT(Number))
	add("unify-tuples-dynamic", tupT(String), Dynamic)
	add("unify-tuple-set", tupT(String), cty.Set(String))
	add("unify-objects-same-attrs", objT("a", String), objT("a", Number))
	add("unify-objects-other-attrs", objT("a", String), objT("b", Number))
	add("unify-objects-other-attrs-not", objT("a", Bool), objT("b", Number))
	add("unify-objects-attrs-not", objT("a", Bool), objT("a", Number))
	add("unify-objects-dynamic", objT("a", String), Dynamic)
	add("unify-object-map", objT("a", String), cty.Map(Number))
	add("unify-object-map-not", objT("a", cty.List(String)), cty.Map(Number))
	add("unify-object-tuple", objT("a", String), tupT(String))
	add("unify-map-object-list", cty.Map(String), objT("a", String), cty.List(String))
	add("unify-string-list", String, cty.List(String))
	add("unify-nested", cty.List(objT("a", cty.Set(String))), cty.List(objT("a", cty.Set(Number))))
	add("unify-optional-objects", optObjT([]string{"b"}, "a", String, "b", String), optObjT([]string{"b"}, "a", String, "b", String))
	add("unify-empty-objects", objT(), objT())
	add("unify-empty-tuples", tupT(), tupT())
	add("unify-empty-tuple-list", tupT(), cty.List(String))
	return us
}
