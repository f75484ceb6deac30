fn main() {
    println!("threefold");
}
