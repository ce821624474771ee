output "joined" {
  value = provider::demo::concat("-", "a", "b", "c") # "a-b-c"
}
