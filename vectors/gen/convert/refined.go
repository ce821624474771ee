//go:build refinements

package main

import "github.com/zclconf/go-cty/cty"

// refinedCases need go-cty 1.13 or later (refinements): build with -tags refinements.
func refinedCases() []convCase {
	var cs []convCase
	add := func(name string, in cty.Value, to cty.Type) {
		cs = append(cs, convCase{name, in, to})
	}
	listLen := func(ty cty.Type, lo, hi int) cty.Value {
		return unknown(ty).Refine().CollectionLengthLowerBound(lo).CollectionLengthUpperBound(hi).NewValue()
	}

	// Nullness carries over; other refinements of a primitive do not.
	add("refined-string-not-null-to-number", unknown(String).RefineNotNull(), Number)
	add("refined-string-prefix-to-number", unknown(String).Refine().NotNull().StringPrefix("12").NewValue(), Number)
	add("refined-number-bounds-to-string", unknown(Number).Refine().NotNull().NumberRangeInclusive(num(1), num(5)).NewValue(), String)
	add("refined-bool-not-null-to-string", unknown(Bool).RefineNotNull(), String)
	add("refined-string-prefix-to-dynamic", unknown(String).Refine().StringPrefix("ab").NewValue(), Dynamic)
	add("refined-string-prefix-to-string", unknown(String).Refine().StringPrefix("ab").NewValue(), String)
	add("refined-object-not-null-to-object", unknown(objT("a", String, "b", Number)).RefineNotNull(), objT("a", String))
	add("refined-object-not-null-to-optional", unknown(objT("a", String)).RefineNotNull(), optObjT([]string{"b"}, "a", String, "b", Number))
	add("refined-map-not-null-to-object", unknown(cty.Map(String)).RefineNotNull(), objT("a", Number))

	// Object to map: the length is the number of attributes.
	add("refined-empty-object-to-map", unknown(cty.EmptyObject), cty.Map(String))
	add("refined-empty-object-not-null-to-map", unknown(cty.EmptyObject).RefineNotNull(), cty.Map(String))
	add("refined-object-to-map", unknown(objT("a", String, "b", String)), cty.Map(String))
	add("refined-object-not-null-to-map", unknown(objT("a", String)).RefineNotNull(), cty.Map(String))
	add("refined-object-to-map-dynamic", unknown(objT("a", String, "b", Number)).RefineNotNull(), cty.Map(Dynamic))

	// Tuple to list: the length is the tuple's; tuple to set: at most that, at least one.
	add("refined-empty-tuple-to-list", unknown(cty.EmptyTuple), cty.List(String))
	add("refined-empty-tuple-not-null-to-list", unknown(cty.EmptyTuple).RefineNotNull(), cty.List(String))
	add("refined-tuple-to-list", unknown(tupT(String, String)), cty.List(String))
	add("refined-tuple-not-null-to-list", unknown(tupT(String, Number, Bool)).RefineNotNull(), cty.List(String))
	add("refined-tuple-not-null-to-list-dynamic", unknown(tupT(String, Number)).RefineNotNull(), cty.List(Dynamic))
	add("refined-empty-tuple-to-set", unknown(cty.EmptyTuple), cty.Set(String))
	add("refined-empty-tuple-not-null-to-set", unknown(cty.EmptyTuple).RefineNotNull(), cty.Set(String))
	add("refined-one-tuple-to-set", unknown(tupT(String)), cty.Set(String))
	add("refined-one-tuple-not-null-to-set", unknown(tupT(String)).RefineNotNull(), cty.Set(String))
	add("refined-tuple-to-set", unknown(tupT(String, String, String)), cty.Set(String))
	add("refined-tuple-not-null-to-set", unknown(tupT(String, Number)).RefineNotNull(), cty.Set(String))

	// Collection to collection: length bounds carry over (to a set, a lower bound
	// becomes one).
	add("refined-list-to-set", listLen(cty.List(String), 2, 4), cty.Set(String))
	add("refined-list-lower-to-set", listLen(cty.List(String), 3, 1<<40), cty.Set(Number))
	add("refined-list-to-list", listLen(cty.List(String), 2, 4), cty.List(Number))
	add("refined-set-to-list", listLen(cty.Set(String), 1, 3), cty.List(String))
	add("refined-set-exact-not-null-to-list", unknown(cty.Set(String)).Refine().NotNull().CollectionLength(3).NewValue(), cty.List(String))
	add("refined-set-exact-to-list", unknown(cty.Set(String)).Refine().CollectionLength(3).NewValue(), cty.List(String))
	add("refined-set-not-null-exact-one-to-set", unknown(cty.List(String)).Refine().NotNull().CollectionLengthLowerBound(1).CollectionLengthUpperBound(1).NewValue(), cty.Set(Number))
	add("refined-map-to-map", listLen(cty.Map(String), 0, 2), cty.Map(Number))
	add("refined-map-not-null-to-map", unknown(cty.Map(String)).Refine().NotNull().CollectionLengthLowerBound(1).NewValue(), cty.Map(Bool))
	add("refined-list-not-null-to-list-dynamic", unknown(cty.List(String)).RefineNotNull(), cty.List(Dynamic))
	add("refined-list-to-set-dynamic", listLen(cty.List(Number), 2, 2), cty.Set(Dynamic))

	// Refined elements inside known collections.
	add("refined-elements-list-to-set", list(vals(unknown(String).Refine().StringPrefix("a").NewValue(), str_("b"))), cty.Set(String))
	add("refined-elements-list-to-list-string", list(vals(unknown(Number).Refine().NotNull().NumberRangeInclusive(num(0), num(9)).NewValue())), cty.List(String))
	add("refined-elements-tuple-to-list-dynamic", tuple(vals(unknown(String).RefineNotNull(), num(1))), cty.List(Dynamic))
	add("refined-attribute-to-map", obj("a", unknown(String).Refine().StringPrefix("x").NewValue(), "b", str_("y")), cty.Map(String))
	add("refined-attribute-object-to-object", obj("a", unknown(Number).Refine().NumberRangeLowerBound(num(1), false).NewValue()), objT("a", String))
	add("refined-set-element-to-list", set(vals(unknown(String).RefineNotNull(), str_("b"))), cty.List(String))
	return cs
}
