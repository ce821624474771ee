use super::*;

fn literal(s: &str) -> Part {
    Part::Literal(s.into())
}

fn var(path: &str) -> Expr {
    let mut names = path.split('.');
    let mut expr = Expr::Variable(names.next().unwrap().into());
    for name in names {
        expr = Expr::Attribute(Box::new(expr), name.into());
    }
    expr
}

#[test]
fn literals_and_escapes() {
    let t = parse_template("plain $ and % and $${x} and %%{y} and $$${z}").unwrap();
    assert_eq!(
        t.parts,
        [literal("plain $ and % and ${x} and %{y} and $${z}")]
    );
    assert!(!t.unwrap);
    assert_eq!(parse_template("").unwrap().parts, []);
    // No backslash escapes in a bare template.
    assert_eq!(parse_template(r"a\nb").unwrap().parts, [literal(r"a\nb")]);
}

#[test]
fn interpolations() {
    let t = parse_template("${var.name}").unwrap();
    assert!(t.unwrap);
    assert_eq!(t.parts, [Part::Interpolation(var("var.name"), 2)]);
    let t = parse_template("${~ local.x ~}").unwrap();
    assert!(t.unwrap);
    let t = parse_template("web-${var.env}-${ local.n[0] }").unwrap();
    assert!(!t.unwrap);
    assert_eq!(
        t.parts,
        [
            literal("web-"),
            Part::Interpolation(var("var.env"), 6),
            literal("-"),
            Part::Interpolation(
                Expr::Index(Box::new(var("local.n")), Box::new(Expr::Number("0".into()))),
                18
            ),
        ]
    );
}

#[test]
fn strip_markers() {
    let t = parse_template("a  ${~ x ~}  b").unwrap();
    assert_eq!(
        t.parts,
        [literal("a"), Part::Interpolation(var("x"), 7), literal("b")]
    );
}

/// HCL reads a template's literal text line by line, each line with its line break,
/// and a strip marker trims only the line next to it: `${~` the last line before (with
/// its line break where the text ends with one), `~}` the first line after.
#[test]
fn strip_markers_stop_at_a_line_break() {
    let t = parse_template("a \n  ${~ x ~}  \n  b").unwrap();
    assert_eq!(
        t.parts,
        [
            literal("a \n"),
            Part::Interpolation(var("x"), 9),
            literal("  b")
        ]
    );
    let t = parse_template("a\n \n${~ x ~}\n\nb").unwrap();
    assert_eq!(
        t.parts,
        [
            literal("a\n"),
            Part::Interpolation(var("x"), 8),
            literal("\nb")
        ]
    );
    // In quotes the text is one piece: an escaped line break is trimmed too.
    let e = parse_expression(r#""a \n ${~ x ~} \n b""#).unwrap();
    let Expr::Template(t) = e else {
        panic!("{e:?}")
    };
    assert_eq!(
        t.parts,
        [
            literal("a"),
            Part::Interpolation(var("x"), 10),
            literal("b")
        ]
    );
}

#[test]
fn expressions() {
    let e = parse_expression(r#"{ a = 1, "b c" = [true, null, "x${y}"], (k) = -2.5e3 }"#).unwrap();
    let Expr::Object(items) = e else { panic!() };
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[2].1,
        Expr::Negate(Box::new(Expr::Number("2.5e3".into())))
    );
    assert_eq!(
        parse_expression("upper(var.x)").unwrap(),
        Expr::Call("upper".into(), vec![var("var.x")])
    );
    assert!(matches!(
        parse_expression("provider::p::f(1, [2]...)").unwrap(),
        Expr::Call(name, args) if name == "provider::p::f" && args.len() == 2
    ));
    assert_eq!(
        parse_expression("a ? b : c").unwrap(),
        Expr::Other(OtherKind::Conditional, vec![var("a"), var("b"), var("c")])
    );
    assert!(matches!(
        parse_expression("a + b * c").unwrap(),
        Expr::Other(OtherKind::Operator, operands) if operands[0] == var("a")
    ));
    assert!(matches!(
        parse_expression("a[*].id").unwrap(),
        Expr::Other(OtherKind::Splat, _)
    ));
    assert_eq!(
        parse_expression("[for x in y : x if x != null]").unwrap(),
        Expr::Other(OtherKind::For, vec![var("y")])
    );
    assert_eq!(
        parse_expression("{for k, v in y : k => v...}").unwrap(),
        Expr::Other(OtherKind::For, vec![var("y")])
    );
    assert_eq!(parse_expression("x.0").unwrap(), var("x.0"));
    let e = parse_expression("{\n a = 1\n b = 2\n}").unwrap();
    assert!(matches!(e, Expr::Object(ref items) if items.len() == 2));
    assert_eq!(parse_expression("# c\n x /* d */").unwrap(), var("x"));
}

#[test]
fn directives() {
    let t =
        parse_template("a%{ if x }b%{ else }c%{ endif }d%{for k, v in m}${v}%{endfor}").unwrap();
    assert_eq!(t.parts.len(), 4);
    assert!(
        matches!(&t.parts[1], Part::If { then, otherwise, .. } if then == &[literal("b")] && otherwise == &[literal("c")])
    );
    assert!(
        matches!(&t.parts[3], Part::For { key: Some(k), value, .. } if k == "k" && value == "v")
    );
}

#[test]
fn errors() {
    let e = parse_template("a ${ x").unwrap_err();
    assert_eq!(e.summary, "Unclosed template interpolation sequence");
    assert_eq!(e.at, 0);
    let e = parse_template("${ a b }").unwrap_err();
    assert_eq!(e.summary, "Extra characters after interpolation expression");
    let e = parse_template("${ x: y }").unwrap_err();
    assert!(e.detail.contains("colon"));
    let e = parse_template("%{ endif }").unwrap_err();
    assert_eq!(e.summary, "Unexpected endif directive");
    assert_eq!(
        e.detail,
        "The control directives within this template are unbalanced."
    );
    let e = parse_template("%{ if x }a").unwrap_err();
    assert_eq!(e.summary, "Unexpected end of template");
    assert_eq!(
        (e.at, e.detail.as_str()),
        (
            10,
            "The if directive at \u{3}0:9\u{4} is missing its corresponding endif directive."
        )
    );
    let e = parse_template("%{ if x }%{ else }%{ else }").unwrap_err();
    assert_eq!(e.summary, "Unexpected else directive");
    let e = parse_template("%{ for x in y }%{ endif }").unwrap_err();
    assert_eq!(
        e.detail,
        "Expecting an endfor directive for the for started at \u{3}0:15\u{4}."
    );
    assert_eq!(
        parse_template("${ \"a\\q\" }").unwrap_err().summary,
        "Invalid escape sequence"
    );
    assert_eq!(
        parse_template("${ f(1 2) }").unwrap_err().summary,
        "Missing argument separator"
    );
    assert_eq!(
        parse_template("${}").unwrap_err().summary,
        "Invalid expression"
    );
    assert_eq!(
        parse_expression("a b").unwrap_err().summary,
        "Extra characters after expression"
    );
    let deep = "(".repeat(100) + "x" + &")".repeat(100);
    assert_eq!(
        parse_expression(&deep).unwrap_err().summary,
        "Expression too deeply nested"
    );
    assert_eq!(
        parse_template("${ <<EOT\nx\nEOT\n }").unwrap_err().summary,
        "Unsupported heredoc template"
    );
}

#[test]
fn quoted_strings_inside() {
    let e = parse_expression(r#""a\"b\u00e9${x}""#).unwrap();
    let Expr::Template(t) = e else { panic!() };
    assert_eq!(
        t.parts,
        [literal("a\"bé"), Part::Interpolation(var("x"), 13)]
    );
    // A `}` inside a quoted string does not close the interpolation.
    let t = parse_template(r#"${ "}" }!"#).unwrap();
    assert_eq!(t.parts.len(), 2);
}
