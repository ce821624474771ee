// Command gocty-convert is go-cty's side of the whole-process comparison with
// `ctywire convert --from msgpack --to msgpack|json` (benches/README.md): it reads a
// type JSON file and a MessagePack payload file, decodes the payload with the type
// (msgpack.Unmarshal), encodes it again (msgpack.Marshal, or ctyjson.Marshal when the
// third argument is `json`) and writes the bytes to standard output, as the ctywire
// command does. A development tool: no test needs Go.
//
// Build in GOPATH mode against Debian's go-cty 1.12.1 (golang-github-zclconf-go-cty-dev):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o target/gocty-convert ./benches/gocty-convert
//	target/gocty-convert instances.type instances.msgpack > out.msgpack
//	target/gocty-convert instances.type instances.msgpack json > out.json
package main

import (
	"fmt"
	"os"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

func main() {
	if len(os.Args) < 3 || len(os.Args) > 4 || (len(os.Args) == 4 && os.Args[3] != "json" && os.Args[3] != "msgpack") {
		fmt.Fprintln(os.Stderr, "usage: gocty-convert TYPE_JSON_FILE MSGPACK_FILE [msgpack|json]")
		os.Exit(2)
	}
	typeJSON, err := os.ReadFile(os.Args[1])
	check(err)
	var ty cty.Type
	check(ty.UnmarshalJSON(typeJSON))
	payload, err := os.ReadFile(os.Args[2])
	check(err)
	value, err := msgpack.Unmarshal(payload, ty)
	check(err)
	var out []byte
	if len(os.Args) == 4 && os.Args[3] == "json" {
		out, err = ctyjson.Marshal(value, ty)
	} else {
		out, err = msgpack.Marshal(value, ty)
	}
	check(err)
	_, err = os.Stdout.Write(out)
	check(err)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
