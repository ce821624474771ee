resource "demo_old_thing" "x" {
  name = "a"
  size = "3"
}

# Later: the same object as a demo_thing.
# moved {
#   from = demo_old_thing.x
#   to   = demo_thing.x
# }
